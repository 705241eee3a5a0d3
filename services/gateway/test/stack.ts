// What the gateway's tests share besides the stack itself (api-stack.ts): where the built
// services live, the backends, the environment of an in-process gateway, and auth's mailbox.
import { TEST_DATABASE_URL, eventually, runNode, type FactorCalls } from '@vigil/platform/testing';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import request from 'supertest';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BACKEND_SERVICES = ['auth', 'screening', 'monitoring', 'billing', 'audit'] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];
export { eventually, runNode };

/**
 * For an in-process gateway that needs no backend answering (a test with backends uses its
 * stack's NATS and `busEnv('gateway')`). npm test's own nats-server has the bus's authorization:
 * it hands the gateway's seed to the tests as VIGIL_TEST_NATS_SEED (a name no service reads).
 */
export const testEnv: { DATABASE_URL: string; NATS_URL: string; NATS_NKEY_SEED?: string } = {
  DATABASE_URL: TEST_DATABASE_URL,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  ...(process.env.VIGIL_TEST_NATS_SEED ? { NATS_NKEY_SEED: process.env.VIGIL_TEST_NATS_SEED } : {}),
};

/**
 * The newest mail to an address as auth's mailbox transport stored it, read from its table:
 * tests are the recipient here, and /auth/v1/dev/mailbox is for administrators of a development stack.
 */
export async function mailTextTo(authSchema: string, to: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ text_body: string }>(
      `SELECT text_body FROM "${authSchema}".mailbox WHERE recipient = $1 ORDER BY created_at DESC, id LIMIT 1`,
      [to.toLowerCase()],
    );
    return rows[0]?.text_body;
  } finally {
    await client.end();
  }
}

/** Auth's factor routes through the gateway's HTTP face, for enrolAuthenticator (`@vigil/platform/testing`). */
export function httpFactorCalls(base: () => ReturnType<typeof request>): FactorCalls {
  const ok = (res: request.Response, step: string) => {
    if (res.status >= 300) throw new Error(`${step}: ${res.status} ${res.text}`);
    return res.body;
  };
  return {
    enroll: async (token) =>
      ok(
        await base().post('/auth/v1/factors').set('authorization', `Bearer ${token}`).send({ factor_type: 'totp' }),
        'enroll',
      ),
    challenge: async (token, factorId) =>
      ok(
        await base().post(`/auth/v1/factors/${factorId}/challenge`).set('authorization', `Bearer ${token}`),
        'challenge',
      ),
    verify: async (token, factorId, challengeId, code) =>
      ok(
        await base()
          .post(`/auth/v1/factors/${factorId}/verify`)
          .set('authorization', `Bearer ${token}`)
          .send({ challenge_id: challengeId, code }),
        'verify',
      ),
  };
}
