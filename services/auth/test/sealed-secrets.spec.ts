import { jest } from '@jest/globals';
import { isSealed, openSecret, runMigrations } from '@vigil/platform';
import { subjects, type EnrollFactorReply } from '@vigil/proto';
import { exportJWK, generateKeyPair } from 'jose';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { DATABASE_URL, startAuthStack, userSession } from './harness.js';

jest.setTimeout(60_000);

const SERVICE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

const runBuilt = (entry: 'main' | 'migrate', env: Record<string, string>) =>
  spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', `${entry}.js`)], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL, NATS_URL: 'nats://127.0.0.1:1', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('auth secrets at rest', () => {
  it('seals the TOTP seeds and signing keys a database already holds in plaintext when it migrates', async () => {
    const schema = `t${randomBytes(4).toString('hex')}_auth`;
    // The schema as it was before sealing: every migration up to the one that seals.
    await runMigrations({
      databaseUrl: DATABASE_URL,
      schema,
      migrations: migrations.filter((m) => !/^SealSecrets/.test(m.name)),
    });
    const db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path="${schema}"` });
    await db.connect();
    try {
      const { rows } = await db.query(
        `INSERT INTO users (email, role) VALUES ('old@example.com', 'user') RETURNING id`,
      );
      const seed = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      await db.query(`INSERT INTO mfa_factors (user_id, secret, status) VALUES ($1, $2, 'verified')`, [
        rows[0].id,
        seed,
      ]);
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const privateJwk = await exportJWK(privateKey);
      await db.query(
        `INSERT INTO signing_keys (kid, algorithm, private_jwk, public_jwk) VALUES ('old-key', 'RS256', $1, $2)`,
        [JSON.stringify(privateJwk), JSON.stringify(await exportJWK(publicKey))],
      );

      const key = randomBytes(32);
      const migrated = runBuilt('migrate', { DB_SCHEMA: schema, AUTH_ENCRYPTION_KEY: key.toString('base64') });
      expect({ status: migrated.status, stderr: migrated.stderr }).toEqual({ status: 0, stderr: '' });

      const factor = (await db.query(`SELECT secret FROM mfa_factors`)).rows[0];
      expect(isSealed(factor.secret)).toBe(true);
      expect(openSecret(key, factor.secret)).toBe(seed);
      const stored = (await db.query(`SELECT private_jwk FROM signing_keys WHERE kid = 'old-key'`)).rows[0].private_jwk;
      expect(Object.keys(stored)).toEqual(['sealed']);
      expect(JSON.parse(openSecret(key, stored.sealed))).toEqual(privateJwk);

      // Migrating again changes nothing (the values are sealed once).
      expect(runBuilt('migrate', { DB_SCHEMA: schema, AUTH_ENCRYPTION_KEY: key.toString('base64') }).status).toBe(0);
      expect((await db.query(`SELECT secret FROM mfa_factors`)).rows[0].secret).toBe(factor.secret);
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.end();
    }
  });

  it('seals them on a development stack without AUTH_ENCRYPTION_KEY too, never storing them as they are', async () => {
    const stack = await startAuthStack({ AUTH_ENCRYPTION_KEY: '' });
    try {
      const session = await userSession(stack, 'dev@example.com');
      const enrolled = await stack.call<EnrollFactorReply>(subjects.auth.enrollFactor, {
        accessToken: session.access_token,
      });
      const { rows } = await stack.db.query(`SELECT secret FROM mfa_factors`);
      expect(rows[0].secret).not.toContain(enrolled.totp.secret);
      expect(isSealed(rows[0].secret)).toBe(true);
      const keys = await stack.db.query(`SELECT private_jwk FROM signing_keys`);
      expect(keys.rows.map((r) => Object.keys(r.private_jwk))).toEqual([['sealed']]);
    } finally {
      await stack.stop();
    }
  });

  it('refuses to boot in production without AUTH_ENCRYPTION_KEY', () => {
    const result = runBuilt('main', {
      NODE_ENV: 'production',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:1',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 78,
      stderr: expect.stringContaining('AUTH_ENCRYPTION_KEY: is required in production'),
    });
  });
});
