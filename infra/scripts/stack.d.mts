// Types for the parts of stack.mjs that TypeScript tests import.
export const SERVICES: readonly string[];
/** The DATABASE_URL `service` runs with: its own role and a password derived from the owner's URL. */
export function serviceDatabaseUrl(ownerUrl: string, service: string): string;
export function portFromEnv(name: string, fallback: number): number;
export function waitForHealth(url: string, timeoutMs: number): Promise<unknown>;
