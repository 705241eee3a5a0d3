import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { AdminListsResponse, AdminOverviewResponse, ListVersionsResponse } from '@vigil/proto';
import { enrolAuthenticator, freePort } from '@vigil/platform/testing';
import { randomBytes } from 'node:crypto';
import { ApiStack } from './api-stack.js';
import request from 'supertest';
import { eventually, httpFactorCalls } from './stack.js';

jest.setTimeout(240_000);

const PASSWORD = 'observability-passphrase';
const BACKENDS = ['auth', 'screening', 'monitoring', 'audit'] as const;

/**
 * The whole request path as separate processes (the gateway too, so its log lines can be read):
 * every service's probe port answers Prometheus text, one screen's W3C trace id shows in the
 * gateway's, screening's and audit's logs, and the admin overview and lists routes answer live
 * figures (billing is not started: it must read as down, not as a made-up figure).
 */
describe('observability: metrics on every probe port, one trace across services, the admin figures', () => {
  const stack = new ApiStack();
  const probes = new Map<string, number>();
  let base = '';
  // stack.member signs up through supertest, which takes a URL as well as a server.
  const app = () => ({ getHttpServer: () => base }) as unknown as INestApplication;
  let client: { id: string; key: string; token: string };
  let adminToken = '';

  const get = async (path: string, token?: string) => {
    const res = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  };
  const overview = async () => {
    const res = await get('/api/client/admin/overview', adminToken);
    expect(res.status).toBe(200);
    return res.body as AdminOverviewResponse;
  };
  const screen = (name: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/screen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': client.key, ...headers },
      body: JSON.stringify({ name }),
    });
  /** The value of the sample `name` whose labels include `labels` (in any order), or undefined. */
  const sample = (text: string, name: string, labels: Record<string, string>) => {
    for (const line of text.split('\n')) {
      const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
    }
    return undefined;
  };
  const logLines = (name: string) =>
    (stack.process(name)?.stdoutLines() ?? []).flatMap((line) => {
      try {
        return [JSON.parse(line) as { traceId?: string; msg?: string }];
      } catch {
        return [];
      }
    });

  beforeAll(async () => {
    for (const service of BACKENDS) {
      probes.set(service, await freePort());
      // Every request's access-log line (production samples them): the trace test reads them.
      stack.backendOverrides[service] = {
        HEALTH_PORT: String(probes.get(service)),
        LOG_LEVEL: 'info',
        ACCESS_LOG_SAMPLE: '1',
      };
    }
    await stack.start([...BACKENDS]);
    const port = await freePort();
    probes.set('gateway', await freePort());
    stack.spawn(
      'gateway',
      {},
      {
        env: stack.gatewayEnv({
          PORT: String(port),
          HOST: '127.0.0.1',
          HEALTH_PORT: String(probes.get('gateway')),
          LOG_LEVEL: 'info',
          ACCESS_LOG_SAMPLE: '1',
        }),
      },
    );
    base = `http://127.0.0.1:${port}`;
    await eventually(
      () =>
        fetch(`${base}/health`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status > 0,
      60_000,
    );
    client = await stack.member(app(), 'large', 'observability-client@example.com', PASSWORD);
    const admin = await stack.member(app(), 'large', 'observability-admin@example.com', PASSWORD);
    await stack.sql('auth', `UPDATE users SET role = 'admin' WHERE email = $1`, ['observability-admin@example.com']);
    const signedIn = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'observability-admin@example.com', password: PASSWORD }),
    });
    const password1 = ((await signedIn.json()) as { access_token: string }).access_token;
    // Every admin route needs aal2 (issue #33): the admin enrols an authenticator first.
    adminToken = (
      await enrolAuthenticator(
        httpFactorCalls(() => request(base)),
        password1,
      )
    ).session.access_token;
    expect(admin.id).toBeTruthy();
  });

  afterAll(() => stack.stop());

  it('answers the admin routes to admins only (403 for a client’s session)', async () => {
    for (const path of [
      '/api/client/admin/overview',
      '/api/client/admin/lists',
      '/api/client/admin/lists/ofac-sdn/versions',
    ]) {
      expect([path, (await get(path, client.token)).status]).toEqual([path, 403]);
      expect([path, (await get(path)).status]).toEqual([path, 401]);
    }
  });

  it('carries one W3C trace id from the gateway through screening to audit, in each one’s logs', async () => {
    const traceId = randomBytes(16).toString('hex');
    const res = await screen('Kim Jong Un', { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
    expect(res.status).toBe(200);
    const inTrace = (name: string) => logLines(name).filter((l) => l.traceId === traceId);
    const { value } = await eventually(
      async () => ({ gateway: inTrace('gateway'), screening: inTrace('screening'), audit: inTrace('audit') }),
      (v) => v.gateway.length > 0 && v.screening.length > 0 && v.audit.length > 0,
      20_000,
    );
    expect(value.gateway.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^POST \/api\/v1\/screen 200 in /));
    expect(value.screening.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^screening\.v1\.screen ok in /));
    expect(value.audit.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^recorded screening\.v1\.screened seq /),
    );
    // A request without a traceparent starts its own trace: a new id, the same in both services.
    await screen('Zebedee Quortlebank');
    const fresh = await eventually(
      async () => logLines('gateway').filter((l) => l.msg?.startsWith('POST /api/v1/screen') && l.traceId !== traceId),
      (lines) => lines.length > 0,
      10_000,
    );
    const freshId = fresh.value[0]!.traceId!;
    expect(freshId).toMatch(/^[0-9a-f]{32}$/);
    await eventually(async () => logLines('screening').some((l) => l.traceId === freshId), Boolean, 10_000);
  });

  it('serves Prometheus text with the request histogram on every service’s probe port', async () => {
    for (const [service, port] of probes) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      const text = await res.text();
      const histogram =
        service === 'gateway' ? 'vigil_http_request_duration_seconds' : 'vigil_nats_handle_duration_seconds';
      expect([service, res.status, res.headers.get('content-type')]).toEqual([
        service,
        200,
        expect.stringMatching(/^text\/plain/),
      ]);
      expect([service, text]).toEqual([service, expect.stringContaining(`# TYPE ${histogram} histogram`)]);
      expect([service, text]).toEqual([
        service,
        expect.stringMatching(new RegExp(`^${histogram}_bucket\\{.*service="${service}"`, 'm')),
      ]);
      expect([service, text]).toEqual([service, expect.stringContaining('vigil_db_query_duration_seconds_bucket')]);
    }
    const text = async (service: string) => (await fetch(`http://127.0.0.1:${probes.get(service)}/metrics`)).text();
    const gateway = await text('gateway');
    const on = { service: 'gateway' };
    expect(
      sample(gateway, 'vigil_http_requests_total', { ...on, method: 'POST', route: '/api/v1/screen', status: '200' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(gateway, 'vigil_nats_request_duration_seconds_count', {
        ...on,
        subject: 'screening.v1.screen',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(gateway, 'vigil_queue_depth', { ...on, queue: 'bulk_jobs', state: 'queued' })).toBe(0);
    const screening = await text('screening');
    expect(
      sample(screening, 'vigil_nats_handled_total', { subject: 'screening.v1.screen', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(screening, 'vigil_index_entities', { engine: 'in-process' })).toBeGreaterThan(0);
    expect(sample(screening, 'vigil_list_ingestions_total', { outcome: 'updated', trigger: 'startup' })).toBe(1);
    expect(
      sample(screening, 'vigil_db_query_duration_seconds_count', { operation: 'WITH', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    const monitoring = await text('monitoring');
    expect(sample(monitoring, 'vigil_queue_depth', { queue: 'webhook_deliveries', state: 'pending' })).toEqual(
      expect.any(Number),
    );
    expect(sample(monitoring, 'vigil_queue_depth', { queue: 'monitoring_checks', state: 'due' })).toEqual(
      expect.any(Number),
    );
    const audit = await text('audit');
    expect(
      sample(audit, 'vigil_audit_events_stored_total', { subject: 'screening.v1.screened' }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('answers the overview from live figures that move after screens', async () => {
    const before = await overview();
    expect(before.services.map((s) => [s.service, s.up])).toEqual([
      ['gateway', true],
      ['auth', true],
      ['screening', true],
      ['monitoring', true],
      ['billing', false],
      ['audit', true],
    ]);
    expect(before.systemHealthPercent).toBeCloseTo((5 / 6) * 100, 1);
    expect(before.activeUsers).toBeGreaterThanOrEqual(2);
    expect(before.totalSearches).toEqual(expect.any(Number));
    // The client's 401s and 403s above were failed or refused access: audit counts them as alerts
    // once their events have crossed JetStream.
    await eventually(overview, (o) => (o.securityAlerts24h ?? 0) >= 1, 15_000);

    for (let i = 0; i < 5; i++) expect((await screen(`Someone Numbered ${i}`)).status).toBe(200);
    const after = await overview();
    const figures = (o: AdminOverviewResponse, name: string) => o.services.find((s) => s.service === name)!;
    expect(after.totalSearches).toBe(before.totalSearches! + 5);
    expect(figures(after, 'gateway').requests).toBeGreaterThanOrEqual(figures(before, 'gateway').requests + 5);
    expect(figures(after, 'screening').requests).toBeGreaterThanOrEqual(figures(before, 'screening').requests + 5);
    expect(figures(after, 'screening').requestsPerSecond).toBeGreaterThan(0);
    expect(figures(after, 'screening').p95LatencyMs).toBeGreaterThan(0);
    // The only server faults so far are the gateway's /health 503s (billing is down) and screening's
    // INDEX_UNAVAILABLE answers to the stack's readiness probes while the index loaded: successful
    // screens dilute both.
    expect(figures(after, 'gateway').errorRate).toBeLessThan(figures(before, 'gateway').errorRate);
    expect(figures(after, 'screening').errorRate).toBeLessThan(Math.max(figures(before, 'screening').errorRate, 1e-9));
    expect(figures(after, 'screening').errorRate).toBeLessThan(0.1);
    expect(figures(after, 'billing')).toMatchObject({ up: false, requests: 0, p95LatencyMs: null });
  });

  it('lists every source with its version, checksum, freshness and history', async () => {
    const lists = (await get('/api/client/admin/lists', adminToken)).body as AdminListsResponse;
    expect(lists.lists.length).toBeGreaterThan(0);
    // The stack's screening replica holds its index in memory (the default engine).
    expect(lists.index).toEqual({ engine: 'in-process' });
    for (const list of lists.lists.filter((l) => l.status === 'active')) {
      expect(list).toMatchObject({
        version: expect.any(Number),
        checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
        lastSuccessAt: expect.any(String),
        lastFailure: null,
      });
      expect(list.entityCount).toBeGreaterThan(0);
      expect(list.indexedVersion).toBe(list.version);
      expect(Date.parse(list.nextRefreshAt!)).toBeGreaterThan(Date.parse(list.lastSuccessAt!));
    }
    const first = lists.lists.find((l) => l.status === 'active')!;
    const history = await get(`/api/client/admin/lists/${first.source}/versions`, adminToken);
    expect(history.status).toBe(200);
    const { versions } = history.body as ListVersionsResponse;
    expect(versions[0]).toMatchObject({
      versionId: first.version,
      current: true,
      checksum: first.checksum,
      entityCount: first.entityCount,
    });
    // The first version of a source adds every entity it has.
    expect(versions[versions.length - 1]!.added).toBe(versions[versions.length - 1]!.entityCount);
    expect((await get('/api/client/admin/lists/no-such-list/versions', adminToken)).status).toBe(404);
  });
});
