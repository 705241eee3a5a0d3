// Idempotency-Key claims are held by a heartbeat. A bank's integration retries within seconds of a
// 502 or a connection reset; when the gateway serving the first attempt had died, it used to get
// 409 for a minute. Now a retry on another replica runs once the dead replica's claim lapsed (the
// takeover time after its last renewal), a long request on a live replica keeps its claim however
// long it runs, and of the retries racing for a lapsed claim exactly one runs. Screening is held
// with SIGSTOP so a request stays in flight as long as a test needs; the claim clocks are the
// defaults a deployment runs with, but for a replica drained on SIGTERM, whose request keeps its
// claim renewed until it is answered (short clocks there, so the drain outlives several takeovers).
import { jest } from '@jest/globals';
import { parseConfig } from '@vigil/platform';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { envSchema } from '../src/env.js';
import { ApiStack } from './api-stack.js';
import { eventually } from './stack.js';

jest.setTimeout(180_000);

const { IDEMPOTENCY_CLAIM_RENEW_MS: RENEW_MS, IDEMPOTENCY_CLAIM_TAKEOVER_MS: TAKEOVER_MS } = parseConfig(envSchema, {});

type Answer = { status: number; code?: string; retryAfter: number | null; replayed: string | null; text: string };

describe('Idempotency-Key claims across gateway processes', () => {
  const stack = new ApiStack();
  let survivor: { url: string; child: ChildProcess };
  let second: { url: string; child: ChildProcess };

  const replica = (env: Record<string, string> = {}) => stack.gatewayReplica(env);

  const post = (url: string, path: string, apiKey: string, idempotencyKey: string, body: unknown, timeoutMs = 30_000) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    }).then(async (r): Promise<Answer> => {
      const text = await r.text();
      return {
        status: r.status,
        code: r.status >= 400 ? (JSON.parse(text) as { code?: string }).code : undefined,
        retryAfter: r.headers.has('retry-after') ? Number(r.headers.get('retry-after')) : null,
        replayed: r.headers.get('idempotent-replayed'),
        text,
      };
    });
  const screen = (url: string, apiKey: string, idempotencyKey: string, timeoutMs?: number) =>
    post(url, '/api/v1/screen', apiKey, idempotencyKey, { name: 'Viktor Bout' }, timeoutMs);

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  const holdScreening = () => stack.services.get('screening')!.kill('SIGSTOP');
  const releaseScreening = () => stack.services.get('screening')!.kill('SIGCONT');

  /** Until the first attempt under `key` holds its claim (and so is waiting on screening). */
  const claimed = (key: string) =>
    eventually(
      () => stack.sql('gateway', `SELECT state FROM idempotency_keys WHERE key = $1`, [key]),
      (rows) => rows[0]?.state === 'pending',
      10_000,
    );
  /**
   * A keyed screen held in flight on a replica of its own (screening stopped), once it holds its
   * claim: the replica to kill or stop, and the screen's answer (or what ended it).
   */
  const inFlight = async (key: string, env: Record<string, string> = {}) => {
    const client = await stack.client('large');
    const own = await replica(env);
    holdScreening();
    const answer = screen(own.url, client.key, key).catch((error: Error) => error);
    await claimed(key);
    return { client, child: own.child, answer };
  };
  const logs = (clientId: string) =>
    stack.sql('screening', `SELECT id FROM screening_logs WHERE client_id = $1`, [clientId]);

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    [survivor, second] = await Promise.all([replica(), replica()]);
  });
  afterEach(() => releaseScreening());
  afterAll(() => stack.stop());

  it('runs a retry on another replica once a SIGKILLed replica’s claim lapsed: within the takeover time, not a minute', async () => {
    const key = `killed-${randomUUID()}`;
    const { client, child, answer } = await inFlight(key);
    await kill(child);
    const killedAt = Date.now();
    await answer;
    releaseScreening();

    const answers: Answer[] = [];
    let last: Answer;
    do {
      last = await screen(survivor.url, client.key, key);
      answers.push(last);
      if (last.status === 409) await sleep(250);
    } while (last.status === 409 && Date.now() - killedAt < 90_000);
    const tookMs = Date.now() - killedAt;

    expect(last.status).toBe(200);
    // Held while the dead replica's last renewal was recent, with a Retry-After that brings the
    // client back in time.
    const refused = answers.slice(0, -1);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 409, code: 'CONFLICT' });
      expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
      expect(answer.retryAfter).toBeLessThanOrEqual(5);
    }
    expect(tookMs).toBeLessThan(TAKEOVER_MS + 2_000);
    // Screening saw the same operation both times: logged (and charged) once.
    const { screeningId } = JSON.parse(last.text) as { screeningId: string };
    expect(await logs(client.id)).toEqual([{ id: screeningId }]);
  });

  it('keeps the claim of a long request on a live replica past the takeover time: a duplicate still gets 409', async () => {
    const client = await stack.client('large');
    const key = `long-${randomUUID()}`;
    const names = { names: ['John Smith', 'Jane Doe', 'Viktor Bout'] };
    holdScreening();
    // A synchronous bulk screen waits up to BULK_SCREEN_TIMEOUT_MS (60 s) for screening.
    const long = post(survivor.url, '/api/v1/bulk-screen', client.key, key, names, 90_000);
    await claimed(key);
    await sleep(TAKEOVER_MS + 2 * RENEW_MS);

    // A duplicate that took the claim over would wait on the held screening too: cut it short.
    const duplicate = await post(second.url, '/api/v1/bulk-screen', client.key, key, names, 5_000).catch(
      (error: Error) => ({ status: `no answer (${error.name})` }),
    );
    expect(duplicate).toMatchObject({ status: 409, code: 'CONFLICT' });

    releaseScreening();
    const answered = await long;
    expect(answered.status).toBe(200);
    const replay = await post(second.url, '/api/v1/bulk-screen', client.key, key, names);
    expect(replay).toMatchObject({ status: 200, replayed: 'true', text: answered.text });
  });

  it('keeps renewing the claim of a request its replica drains on SIGTERM, and replays its answer to a retry', async () => {
    // Clocks short enough that a drain outlives several takeover times in seconds; the request's
    // own deadline longer than the drain.
    const takeoverMs = 1_000;
    const env = {
      IDEMPOTENCY_CLAIM_RENEW_MS: '200',
      IDEMPOTENCY_CLAIM_TAKEOVER_MS: String(takeoverMs),
      NATS_REQUEST_TIMEOUT_MS: '30000',
    };
    const key = `drained-${randomUUID()}`;
    const { client, child, answer } = await inFlight(key, env);
    const held = () =>
      stack.sql(
        'gateway',
        `SELECT state, claim, (extract(epoch FROM now() - renewed_at) * 1000)::float8 AS since_renewal_ms
         FROM idempotency_keys WHERE key = $1`,
        [key],
      );
    const [{ claim }] = await held();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await sleep(3 * takeoverMs);

    // Still draining the request, and still its holder: renewed within the takeover time.
    expect({ exitCode: child.exitCode, signalCode: child.signalCode }).toEqual({ exitCode: null, signalCode: null });
    const [record] = await held();
    expect(record).toMatchObject({ state: 'pending', claim });
    expect(record.since_renewal_ms).toBeLessThan(takeoverMs);

    releaseScreening();
    const answered = await answer;
    expect(answered).toMatchObject({ status: 200 });
    await exited;
    const replay = await screen(survivor.url, client.key, key);
    expect(replay).toMatchObject({ status: 200, replayed: 'true', text: (answered as Answer).text });
  });

  it('gives a dead replica’s lapsed claim to exactly one of eight retries racing for it on two replicas', async () => {
    const key = `race-${randomUUID()}`;
    const { client, child, answer } = await inFlight(key);
    await kill(child);
    await answer;
    // What the takeover time without a renewal leaves behind, without waiting for it.
    await stack.sql('gateway', `UPDATE idempotency_keys SET renewed_at = now() - interval '1 hour' WHERE key = $1`, [
      key,
    ]);

    // The row locked until every retry waits on it in Postgres: all eight then contend at once, as
    // retries arriving in the same instant would, instead of one after another.
    const lock = await stack.connect('gateway');
    await lock.query('BEGIN');
    await lock.query(`SELECT 1 FROM idempotency_keys WHERE key = $1 FOR UPDATE`, [key]);
    const settled: Answer[] = [];
    const racing = Array.from({ length: 8 }, (_, i) =>
      screen(i % 2 === 0 ? survivor.url : second.url, client.key, key).then((answer) => {
        settled.push(answer);
        return answer;
      }),
    );
    await eventually(
      () =>
        stack.sql(
          'gateway',
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [`vigil-${stack.schema('gateway')}`],
        ),
      (rows) => rows[0].n === 8,
      10_000,
    );
    await lock.query('COMMIT');
    // The losers answer at once; the winner waits on screening, released once they have (or
    // after a while, when more than one won).
    await eventually(
      () => settled.length,
      (n) => n >= 7,
      3_000,
    ).catch(() => undefined);
    releaseScreening();
    const answers = await Promise.all(racing);

    expect(answers.map((a) => `${a.status} ${a.code ?? ''}`.trim()).sort()).toEqual([
      '200',
      ...Array<string>(7).fill('409 CONFLICT'),
    ]);
    const winner = answers.find((a) => a.status === 200)!;
    const { screeningId } = JSON.parse(winner.text) as { screeningId: string };
    expect(await logs(client.id)).toEqual([{ id: screeningId }]);
  });
});
