// waitForDatabase against a real refused port and the real Postgres: how it paces its attempts
// and what it says about each one. The boot it serves is tested end to end in services/audit.
import { createServer } from 'node:net';
import { DatabaseUnreachableError, waitForDatabase, type ConnectFailure } from '../src/database-wait.js';
import { freePort } from '../src/testing.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

describe('waitForDatabase', () => {
  it('answers at once when Postgres is up', async () => {
    const failures: ConnectFailure[] = [];
    await waitForDatabase({ databaseUrl: DATABASE_URL, timeoutSeconds: 5, onRetry: (f) => failures.push(f) });
    expect(failures).toEqual([]);
  });

  it('backs off exponentially, jittered, up to its cap, then gives up with the last reason', async () => {
    const port = await freePort();
    const failures: ConnectFailure[] = [];
    const started = Date.now();
    const attempt = waitForDatabase({
      databaseUrl: `postgres://someone:hunter2@127.0.0.1:${port}/db`,
      timeoutSeconds: 2,
      initialDelayMs: 50,
      maxDelayMs: 400,
      onRetry: (f) => failures.push(f),
    });
    await expect(attempt).rejects.toThrow(DatabaseUnreachableError);
    const error = (await attempt.catch((e: unknown) => e)) as DatabaseUnreachableError;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(error.message).toMatch(
      new RegExp(`^Postgres at postgres://someone@127\\.0\\.0\\.1:${port}/db not reachable after 2 s \\(\\d+ attempts; last: connect ECONNREFUSED`),
    );
    expect(error.attempts).toBe(failures.length + 1);
    // Each delay lies in [ceiling / 2, ceiling], the ceiling doubling from 50 ms up to 400 ms;
    // the last may be cut short by the deadline.
    failures.slice(0, -1).forEach((f, i) => {
      const ceiling = Math.min(400, 50 * 2 ** i);
      expect(f.retryInMs).toBeGreaterThanOrEqual(ceiling / 2);
      expect(f.retryInMs).toBeLessThanOrEqual(ceiling);
    });
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(failures.map((f) => f.attempt)).toEqual(failures.map((_, i) => i + 1));
    expect(new Set(failures.slice(3, -1).map((f) => f.retryInMs)).size).toBeGreaterThan(1);
  });

  it('keeps the password out of the reason even when the server echoes it', async () => {
    const password = 'echoed-secret';
    // Not Postgres: it answers the startup packet with an ErrorResponse quoting the password.
    const server = createServer((socket) => {
      socket.once('data', () => {
        const fields = Buffer.from(`SFATAL\0C28P01\0Mno such user, and the password was ${password}\0\0`);
        const header = Buffer.alloc(5);
        header.write('E');
        header.writeInt32BE(fields.length + 4, 1);
        socket.end(Buffer.concat([header, fields]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const error = await waitForDatabase({
        databaseUrl: `postgres://u:${password}@127.0.0.1:${port}/db`,
        timeoutSeconds: 0,
        onRetry: () => undefined,
      }).catch((e: unknown) => e as Error);
      expect((error as Error).message).toContain('no such user, and the password was ***');
      expect((error as Error).message).not.toContain(password);
    } finally {
      server.close();
    }
  });
});
