import { jest } from '@jest/globals';
import { subjects, type ResolvedKey, type Session } from '@vigil/proto';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { totpCode } from '@vigil/platform/testing';
import { DATABASE_URL, TEST_ENCRYPTION_KEY, claimsOf, startAuthStack, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

const SEED = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'seed.js');

function runSeed(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SEED], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL,
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
        AUTH_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('seed.js: demo data for npm start', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  it('seeds once, prints the same JSON on every run, and the printed credentials work', async () => {
    const env = { DB_SCHEMA: stack.schema, ...stack.busEnv };
    const [first, second] = [await runSeed(env), await runSeed(env)];
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const a = JSON.parse(first.stdout);
    const b = JSON.parse(second.stdout);
    expect(a.seeded).toBe(true);
    expect(b.seeded).toBe(false);
    expect({ ...b, seeded: true }).toEqual(a);
    expect(a).toMatchObject({
      admin: { email: 'admin@vigil.dev' },
      client: { name: 'Demo Bank', email: 'demo@example.com' },
    });
    expect(a.client.apiKey).toMatch(/^[0-9a-f]{64}$/);

    const admin = await stack.call<Session>(subjects.auth.token, {
      grant_type: 'password',
      email: a.admin.email,
      password: a.admin.password,
    });
    expect(admin.user.role).toBe('admin');
    // Every admin route needs aal2: the printed authenticator secret completes the code step.
    const factor = admin.user.factors.find((f) => f.status === 'verified')!;
    const challenge = await stack.call<{ id: string }>(subjects.auth.challengeFactor, {
      accessToken: admin.access_token,
      factor_id: factor.id,
    });
    const raised = await stack.call<Session>(subjects.auth.verifyFactor, {
      accessToken: admin.access_token,
      factor_id: factor.id,
      challenge_id: challenge.id,
      code: totpCode(a.admin.totpSecret),
    });
    expect(claimsOf(raised.access_token).aal).toBe('aal2');
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM invitation_codes WHERE used_by = $1`, [
      admin.user.id,
    ]);
    expect(rows[0].n).toBe(1);

    const user = await stack.call<Session>(subjects.auth.token, {
      grant_type: 'password',
      email: a.client.email,
      password: a.client.password,
    });
    expect(user.user.client_id).toBe(a.client.id);
    const resolved = await stack.call<ResolvedKey>(subjects.clients.resolveKey, {
      keyHash: createHash('sha256').update(a.client.apiKey).digest('hex'),
    });
    expect(resolved).toMatchObject({
      clientId: a.client.id,
      tier: 'large',
      subscriptionStatus: 'active',
      quotaMonth: 100_000,
    });

    // The spare invitation code makes a second allow-listed admin.
    const users = await stack.db.query(`SELECT count(*)::int AS n FROM users`);
    expect(users.rows[0].n).toBe(2);
    expect(a.invitationCode).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
  });

  it('refuses to seed a stack that sends real mail', async () => {
    const result = await runSeed({
      DB_SCHEMA: stack.schema,
      ...stack.busEnv,
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:1',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('MAIL_TRANSPORT');
  });
});
