import { jest } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@vigil/platform/testing';
import pg from 'pg';
import { ensurePostgres } from '../scripts/infrastructure.mjs';

jest.setTimeout(120_000);

// `npm start` on a machine without DATABASE_URL runs this embedded Postgres; a
// second start must find what the first one wrote.
describe('the embedded Postgres of npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-embedded-pg-'));
  // Run as root, Postgres runs as its own user, which must be able to reach the folder.
  chmodSync(dir, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its data between two starts', async () => {
    // A port nobody else uses, so the first start really initialises a new cluster.
    // candidate null, not undefined: undefined would fall back to DATABASE_URL.
    const options = { candidate: null, databaseName: 'vigil', port: await freePort(), dataDir: join(dir, 'postgres') };
    const first = await ensurePostgres(options);
    try {
      expect(new URL(first.url).port).toBe(String(options.port));
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      try {
        await client.query('CREATE TABLE kept (note text)');
        await client.query(`INSERT INTO kept VALUES ('written by the first start')`);
      } finally {
        await client.end();
      }
    } finally {
      await first.stop();
    }

    // Stopped on every path, so a failure never leaves a server (or jest) running.
    const second = await ensurePostgres(options);
    let rows: unknown[];
    try {
      const again = new pg.Client({ connectionString: second.url });
      await again.connect();
      try {
        rows = (await again.query('SELECT note FROM kept')).rows;
      } finally {
        await again.end();
      }
    } finally {
      await second.stop();
    }
    expect(rows).toEqual([{ note: 'written by the first start' }]);
  });

  it('uses a given DATABASE_URL when it answers instead of starting its own', async () => {
    // A server that answers: npm test's, or (run alone on a fresh machine) one started here.
    const server = process.env.DATABASE_URL
      ? undefined
      : await ensurePostgres({
          candidate: null,
          databaseName: 'vigil',
          port: await freePort(),
          dataDir: join(dir, 'given'),
        });
    const given = process.env.DATABASE_URL ?? server!.url;
    try {
      const running = await ensurePostgres({ candidate: given, port: await freePort(), dataDir: join(dir, 'unused') });
      expect(running.url).toBe(given);
      await running.stop();
    } finally {
      await server?.stop();
    }
  });
});
