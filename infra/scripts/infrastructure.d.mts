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
/** Each service's NKey (and the unrestricted `harness` key), as @vigil/platform/bus creates them. */
export type BusKeys = Record<string, { seed: string; publicKey: string }>;
export function ensureNats(options?: { port?: number }): Promise<Running & { keys?: BusKeys }>;
export function writeNatsBusConfig(options: { dir: string; port: number; storeDir: string }): Promise<{ configFile: string; keys: BusKeys }>;
export function ensureRedis(options?: { url?: string }): Promise<Running>;
export function redact(url: string): string;
export function freshDatabase(url: string, name: string): Promise<string>;
