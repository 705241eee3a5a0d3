export const DEBIAN_CHROMIUM: string;
export const INSTALL_HINT: string;
export type ChromiumPlan =
  { action: 'ready'; path: string } | { action: 'install'; path: string } | { action: 'fail'; message: string };
export function chromiumPlan(machine?: {
  chromiumPath?: string;
  exists?: (path: string) => boolean;
  isRoot?: boolean;
  hasAptGet?: boolean;
}): ChromiumPlan;
export function ensureChromium(io: { log: (message: string) => void; fail: (message: string) => never }): string;
