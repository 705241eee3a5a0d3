export type Running = { url: string; stop: () => Promise<void> };
export function ensurePostgres(options?: {
  candidate?: string | null;
  databaseName?: string;
  port?: number;
  dataDir?: string;
  flags?: string[];
}): Promise<Running>;
export function ensureTestPostgres(): Promise<Running>;
export function ensureBenchPostgres(): Promise<Running>;
export function ensureNats(options?: { port?: number }): Promise<Running>;
export function ensureRedis(options?: { url?: string }): Promise<Running>;
export function redact(url: string): string;
export function freshDatabase(url: string, name: string): Promise<string>;
