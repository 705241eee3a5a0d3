export type PackageName = 'nats-server' | 'redis-server' | 'chromium';
export const PACKAGES: Record<PackageName, { binaries: string[]; for: string }>;
export const DEBIAN_CHROMIUM: string;
export type PackagesPlan =
  | { action: 'ready'; missing: PackageName[] }
  | { action: 'install'; missing: PackageName[] }
  | { action: 'fail'; missing: PackageName[]; message: string };
export function packagesPlan(
  names: PackageName[],
  machine?: { chromiumPath?: string; exists?: (path: string) => boolean; isRoot?: boolean; hasAptGet?: boolean },
): PackagesPlan;
export function installHint(missing: PackageName[]): string;
export function ensurePackages(names: PackageName[], io: { fail: (message: string) => never }): void;
export function binaryOf(name: PackageName): string | undefined;
export function timed<T>(label: string, fn: () => T): T;
export function durationsTable(): string;
