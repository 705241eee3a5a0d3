import pg from 'pg';

/** One failed connection attempt, as it is logged: never the password, never a stack. */
export type ConnectFailure = { attempt: number; reason: string; retryInMs: number };

/** Postgres did not answer within the bound: `reason` is the last attempt's. */
export class DatabaseUnreachableError extends Error {
  constructor(
    readonly target: string,
    readonly attempts: number,
    readonly reason: string,
    readonly timeoutSeconds: number,
  ) {
    super(
      `Postgres at ${target} not reachable after ${timeoutSeconds} s (${attempts} attempt${attempts === 1 ? '' : 's'}; last: ${reason})`,
    );
    this.name = 'DatabaseUnreachableError';
  }
}

export type WaitForDatabaseOptions = {
  databaseUrl: string;
  /** How long to keep trying; 0 tries once. */
  timeoutSeconds: number;
  onRetry: (failure: ConnectFailure) => void;
  /** First delay between attempts; it doubles up to `maxDelayMs`, each one jittered. */
  initialDelayMs?: number;
  maxDelayMs?: number;
};

/** The URL as it may be logged: user, host, port and database, no password. */
export function databaseTarget(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  url.search = '';
  return url.toString();
}

// Duck-typed: errors from node's sockets may come from another realm (a test's VM context).
const messageOf = (error: unknown): string =>
  typeof (error as { message?: unknown })?.message === 'string' ? (error as { message: string }).message : String(error);

function reasonOf(error: unknown, password: string): string {
  // A refused connection to a name with IPv4 and IPv6 addresses is an AggregateError whose own
  // message is empty: the addresses' messages are the reason.
  const nested = (error as { errors?: unknown })?.errors;
  const parts = Array.isArray(nested) && !messageOf(error) ? nested.map(messageOf) : [messageOf(error)];
  const code = (error as { code?: unknown })?.code;
  let reason = parts.filter(Boolean).join('; ') || 'connection failed';
  if (typeof code === 'string' && !reason.includes(code)) reason += ` (${code})`;
  // No driver message is known to quote the password, but a log is the wrong place to find out.
  return password ? reason.split(password).join('***') : reason;
}

async function tryOnce(databaseUrl: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: connectTimeoutMs });
  // A connection dropped mid-handshake is also an 'error' event; unheard, it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Connects to DATABASE_URL until Postgres answers `SELECT 1` or `timeoutSeconds` pass: a service
 * started before its database (compose or k8s start order, a failover, `npm start` racing it)
 * waits instead of dying for an orchestrator to restart. Every failure is retried: "role does
 * not exist" while the migration Job runs heals like a refused connection does, and the bound
 * ends the ones that never will. Capped exponential backoff with jitter, so replicas that lost
 * the same primary do not come back in step.
 */
export async function waitForDatabase(options: WaitForDatabaseOptions): Promise<void> {
  const { databaseUrl, timeoutSeconds, onRetry, initialDelayMs = 500, maxDelayMs = 5_000 } = options;
  const password = decodeURIComponent(new URL(databaseUrl).password);
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - Date.now();
    try {
      // A host that drops packets would hold an attempt for the kernel's TCP timeout (minutes).
      await tryOnce(databaseUrl, Math.max(1_000, Math.min(5_000, remaining)));
      return;
    } catch (error) {
      const reason = reasonOf(error, password);
      const left = deadline - Date.now();
      if (left <= 0) throw new DatabaseUnreachableError(databaseTarget(databaseUrl), attempt, reason, timeoutSeconds);
      const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
      // Equal jitter: at least half the ceiling, so the backoff still grows.
      const retryInMs = Math.min(left, Math.round(ceiling / 2 + Math.random() * (ceiling / 2)));
      onRetry({ attempt, reason, retryInMs });
      await sleep(retryInMs);
    }
  }
}
