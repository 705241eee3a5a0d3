import { jest } from '@jest/globals';
import { MonitoringStack, eventually, type Body } from './harness.js';

jest.setTimeout(240_000);

// Through the gateway, with the dashboard's credentials: the 12 /api/monitoring routes, their
// validation (problem+json with stable codes), §4's transitions, the manual check, client lists
// screened on upload, and tenancy over every route and the webhook routes.

type Member = Awaited<ReturnType<MonitoringStack['member']>>;

const SANCTIONED = 'Vladimir Vladimirovich Putin';
const CLEAR = 'Zebedee Quortlebank';

describe('monitoring routes at the gateway', () => {
  const stack = new MonitoringStack();
  let a: Member;
  let b: Member;
  let starter: Member;

  beforeAll(async () => {
    await stack.start(['auth', 'screening', 'monitoring', 'gateway']);
    a = await stack.member('large', 'monitor-a@example.com');
    b = await stack.member('medium', 'monitor-b@example.com');
    starter = await stack.member('starter', 'monitor-starter@example.com');
  });

  afterAll(() => stack.stop());

  function expectProblem(
    res: { status: number; body: Body; contentType: string },
    status: number,
    code: string,
    what = '',
  ) {
    expect([what, res.status, res.body?.code]).toEqual([what, status, code]);
    expect(res.contentType).toMatch(/application\/problem\+json/);
  }

  async function add(m: Member, body: Record<string, unknown>) {
    const res = await stack.http(m, 'POST', '/api/monitoring/entities', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; entity_name: string; monitoring_status: string; check_frequency: string };
  }

  it('adds entities with §5 defaults and lists them under `entities`, newest first, filtered and paged', async () => {
    const first = await add(a, { entity_name: '  Acme Trading Ltd  ' });
    expect(first).toMatchObject({
      entity_name: 'Acme Trading Ltd',
      entity_email: null,
      entity_aliases: [],
      check_frequency: 'daily',
      notes: null,
      monitoring_status: 'active',
      alert_count: 0,
      origin: 'manual',
    });
    const second = await add(a, {
      entity_name: 'Jane Example',
      entity_email: 'jane@example.com',
      entity_aliases: ['J. Example'],
      check_frequency: 'weekly',
      notes: 'onboarded 2024',
    });
    const list = await stack.http(a, 'GET', '/api/monitoring/entities?limit=1');
    expect(list.status).toBe(200);
    expect(list.body.entities.map((e: { id: string }) => e.id)).toEqual([second.id]);
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    const paused = await stack.http(a, 'PUT', `/api/monitoring/entities/${first.id}`, { monitoring_status: 'paused' });
    expect(paused.body.monitoring_status).toBe('paused');
    const onlyPaused = await stack.http(a, 'GET', '/api/monitoring/entities?status=paused');
    expect(onlyPaused.body.entities.map((e: { id: string }) => e.id)).toEqual([first.id]);
  });

  it('refuses bad input with problem+json and stable codes', async () => {
    expectProblem(await stack.http(a, 'POST', '/api/monitoring/entities', {}), 400, 'VALIDATION_FAILED', 'no name');
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/entities', { entity_name: '   ' }),
      400,
      'VALIDATION_FAILED',
      'blank',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/entities', { entity_name: 'x', check_frequency: 'hourly' }),
      400,
      'VALIDATION_FAILED',
      'frequency',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/entities', { entity_name: 'x', entity_email: 'not-an-email' }),
      400,
      'VALIDATION_FAILED',
      'email',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/entities', '{"entity_name":'),
      400,
      'BAD_REQUEST',
      'broken JSON',
    );
    expectProblem(
      await stack.http(a, 'GET', '/api/monitoring/entities?status=asleep'),
      400,
      'VALIDATION_FAILED',
      'status filter',
    );
    expectProblem(
      await stack.http(a, 'GET', '/api/monitoring/entities?limit=100000'),
      400,
      'VALIDATION_FAILED',
      'limit',
    );
    expectProblem(
      await stack.http(a, 'GET', '/api/monitoring/alerts?severity=urgent'),
      400,
      'VALIDATION_FAILED',
      'severity',
    );
    expectProblem(
      await stack.http(a, 'GET', '/api/monitoring/alerts?acknowledged=maybe'),
      400,
      'VALIDATION_FAILED',
      'ack',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/bulk', { entities: [] }),
      400,
      'VALIDATION_FAILED',
      'bulk empty',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/bulk', {
        entities: Array.from({ length: 1001 }, (_, i) => ({ entity_name: `n${i}` })),
      }),
      400,
      'VALIDATION_FAILED',
      'bulk too large',
    );
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/bulk/remove', { entityIds: ['nope'] }),
      400,
      'VALIDATION_FAILED',
      'ids',
    );
    expectProblem(
      await stack.http(a, 'PUT', '/api/monitoring/settings', { default_check_frequency: 'yearly' }),
      400,
      'VALIDATION_FAILED',
      'settings',
    );
    expectProblem(
      await stack.http(a, 'PUT', '/api/monitoring/settings', { surprise: true }),
      400,
      'VALIDATION_FAILED',
      'unknown setting',
    );
    const some = await add(a, { entity_name: 'Transition Test' });
    expectProblem(
      await stack.http(a, 'PUT', `/api/monitoring/entities/${some.id}`, { monitoring_status: 'gone' }),
      400,
      'VALIDATION_FAILED',
      'status',
    );
    // Unknown ids: 404, malformed ones too; never a 500.
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['PUT', `/api/monitoring/entities/${unknown}`],
      ['DELETE', `/api/monitoring/entities/${unknown}`],
      ['POST', `/api/monitoring/entities/${unknown}/check`],
      ['POST', `/api/monitoring/alerts/${unknown}/acknowledge`],
      ['DELETE', `/api/monitoring/entities/not-a-uuid`],
      ['POST', `/api/monitoring/alerts/12/acknowledge`],
    ] as const) {
      expectProblem(
        await stack.http(a, method, path, method === 'PUT' ? { monitoring_status: 'paused' } : undefined),
        404,
        'NOT_FOUND',
        `${method} ${path}`,
      );
    }
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/bulk/remove', { entityIds: [unknown] }),
      404,
      'NOT_FOUND',
      'bulk remove',
    );
    // Without credentials.
    expect((await stack.http(null, 'GET', '/api/monitoring/stats')).status).toBe(401);
  });

  it('follows §4: active → paused, non-active → active, any → stopped; anything else is 409', async () => {
    const e = await add(a, { entity_name: 'Status Walk Ltd' });
    const put = (status: string) =>
      stack.http(a, 'PUT', `/api/monitoring/entities/${e.id}`, { monitoring_status: status });
    expectProblem(await put('active'), 409, 'CONFLICT', 'active → active');
    expect((await put('paused')).body.monitoring_status).toBe('paused');
    expectProblem(await put('paused'), 409, 'CONFLICT', 'paused → paused');
    expect((await put('active')).body.monitoring_status).toBe('active');
    expect((await put('stopped')).body.monitoring_status).toBe('stopped');
    expectProblem(await put('paused'), 409, 'CONFLICT', 'stopped → paused');
    expectProblem(
      await stack.http(a, 'POST', `/api/monitoring/entities/${e.id}/check`),
      409,
      'CONFLICT',
      'check stopped',
    );
    expect((await put('stopped')).body.monitoring_status).toBe('stopped');
    expect((await put('active')).body.monitoring_status).toBe('active');
  });

  it('a manual check of a sanctioned name raises its alert within seconds; acknowledging it twice is 409', async () => {
    const e = await add(a, { entity_name: SANCTIONED });
    const started = Date.now();
    const checked = await stack.http(a, 'POST', `/api/monitoring/entities/${e.id}/check`);
    const elapsed = Date.now() - started;
    expect(checked.status).toBe(200);
    expect(elapsed).toBeLessThan(5_000);
    expect(checked.body.entity.screening_status).toBe('sanctioned');
    expect(checked.body.entity.last_checked).not.toBeNull();
    // The scheduler may have checked the new entity first; either way exactly one alert names it.
    const { value } = await eventually(
      () => stack.http(a, 'GET', '/api/monitoring/alerts?acknowledged=false&limit=500'),
      (r) => r.body.alerts.some((x: { entity_id: string }) => x.entity_id === e.id),
      5_000,
    );
    const alerts = value.body.alerts.filter((x: { entity_id: string }) => x.entity_id === e.id);
    const putin = alerts.filter((x: { matched_sanctioned_name: string }) => /PUTIN/i.test(x.matched_sanctioned_name));
    expect(putin).toHaveLength(1);
    expect(putin[0]).toMatchObject({
      entity_name: SANCTIONED,
      is_acknowledged: false,
      alert_type: 'check_match',
    });
    expect(['high', 'critical']).toContain(putin[0].severity);
    // A second check of the unchanged match raises nothing new.
    const again = await stack.http(a, 'POST', `/api/monitoring/entities/${e.id}/check`);
    expect(again.body.alerts).toEqual([]);
    const ack = await stack.http(a, 'POST', `/api/monitoring/alerts/${putin[0].id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body.is_acknowledged).toBe(true);
    expectProblem(
      await stack.http(a, 'POST', `/api/monitoring/alerts/${putin[0].id}/acknowledge`),
      409,
      'CONFLICT',
      'ack twice',
    );
    // Acknowledged and unchanged: a further check does not raise it again.
    expect((await stack.http(a, 'POST', `/api/monitoring/entities/${e.id}/check`)).body.alerts).toEqual([]);
    const acknowledged = await stack.http(a, 'GET', '/api/monitoring/alerts?acknowledged=true');
    expect(acknowledged.body.alerts.map((x: { id: string }) => x.id)).toContain(putin[0].id);
    const clear = await add(a, { entity_name: CLEAR });
    const clearCheck = await stack.http(a, 'POST', `/api/monitoring/entities/${clear.id}/check`);
    expect(clearCheck.body.entity.screening_status).toBe('clear');
    expect(clearCheck.body.alerts).toEqual([]);
  });

  it('answers stats, settings, bulk add and remove, and the service status', async () => {
    const bulk = await stack.http(a, 'POST', '/api/monitoring/bulk', {
      entities: [{ entity_name: 'Bulk One' }, { entity_name: 'Bulk Two', check_frequency: 'monthly' }],
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.created).toBe(2);
    const ids = bulk.body.entities.map((e: { id: string }) => e.id);
    const removed = await stack.http(a, 'POST', '/api/monitoring/bulk/remove', { entityIds: ids });
    expect(removed.body).toEqual({ removed: 2, entityIds: expect.arrayContaining(ids) });
    const stats = await stack.http(a, 'GET', '/api/monitoring/stats');
    expect(stats.status).toBe(200);
    expect(Object.keys(stats.body.stats).sort()).toEqual(
      [
        'active_monitored',
        'critical_alerts',
        'last_check_time',
        'overdue_checks',
        'total_monitored',
        'unacknowledged_alerts',
      ].sort(),
    );
    expect(stats.body.stats.total_monitored).toBeGreaterThanOrEqual(5);
    const settings = await stack.http(a, 'GET', '/api/monitoring/settings');
    expect(settings.body.settings).toEqual({
      default_check_frequency: 'daily',
      rescreen_on_list_update: true,
      alert_on_review: true,
    });
    const changed = await stack.http(a, 'PUT', '/api/monitoring/settings', { default_check_frequency: 'weekly' });
    expect(changed.body.settings.default_check_frequency).toBe('weekly');
    expect((await add(a, { entity_name: 'Weekly By Default' })).check_frequency).toBe('weekly');
    await stack.http(a, 'PUT', '/api/monitoring/settings', { default_check_frequency: 'daily' });
    const status = await stack.http(a, 'GET', '/api/monitoring/service/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      status: 'operational',
      scheduler: { running: true },
      list_updates: { consumer_running: true },
    });
  });

  it('screens every entry of an uploaded client list: §4 statuses, score, source and counters', async () => {
    const csv = [
      'name,email,aliases',
      `${SANCTIONED},,`,
      `${CLEAR},z@example.com,`,
      'Kim Jong Un,,',
      'Plain Person Nobody,,',
    ].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
    const upload = await fetch(`${stack.gatewayUrl}/api/client-lists/upload-csv`, {
      method: 'POST',
      headers: a.headers,
      body: form,
    });
    expect(upload.status).toBe(201);
    const list = (await upload.json()) as { id: string; count: number };
    expect(list.count).toBe(4);
    const { value } = await eventually(
      () => stack.http(a, 'GET', `/api/client/lists/${list.id}/entries`),
      (r) => r.body.entries?.every((e: { screening_status: string }) => e.screening_status !== 'unknown'),
      30_000,
    );
    const byName = Object.fromEntries(value.body.entries.map((e: Body) => [e.name, e]));
    expect(byName[SANCTIONED]).toMatchObject({ screening_status: 'sanctioned', screening_source: 'ofac_sdn' });
    expect(byName[SANCTIONED].screening_score).toBeGreaterThanOrEqual(0.85);
    expect(byName['Kim Jong Un'].screening_status).toBe('sanctioned');
    expect(byName[CLEAR]).toMatchObject({ screening_status: 'clear' });
    const lists = await stack.http(a, 'GET', '/api/client/lists');
    const counted = lists.body.lists.find((l: { id: string }) => l.id === list.id);
    expect(counted.counts.sanctioned).toBe(2);
    expect(counted.counts.sanctioned + counted.counts.review + counted.counts.clear).toBe(4);
    // The entries are monitored like entities, and their matches raise alerts.
    const fromList = await stack.http(a, 'GET', '/api/monitoring/entities?origin=client_list');
    expect(fromList.body.entities.filter((e: { client_list_id: string }) => e.client_list_id === list.id)).toHaveLength(
      4,
    );
    const alerts = await stack.http(a, 'GET', '/api/monitoring/alerts?limit=500');
    expect(alerts.body.alerts.some((x: { entity_name: string }) => x.entity_name === 'Kim Jong Un')).toBe(true);
  });

  it('keeps webhooks for the small tier and up and refuses private targets', async () => {
    expectProblem(
      await stack.http(starter, 'POST', '/api/monitoring/webhooks', {
        url: 'https://example.com/hook',
        event_types: ['monitoring.alert'],
      }),
      403,
      'FEATURE_NOT_IN_PLAN',
      'starter',
    );
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'http://192.168.1.5/x',
      'https://[fe80::1]/x',
    ]) {
      expectProblem(
        await stack.http(a, 'POST', '/api/monitoring/webhooks', { url, event_types: ['monitoring.alert'] }),
        400,
        'VALIDATION_FAILED',
        url,
      );
    }
    expectProblem(
      await stack.http(a, 'POST', '/api/monitoring/webhooks', { url: 'https://example.com/x', event_types: ['nope'] }),
      400,
      'VALIDATION_FAILED',
      'type',
    );
  });

  it('client A’s credentials on client B’s ids succeed 0 times, over all 12 routes and the webhook routes', async () => {
    const bEntity = await add(b, { entity_name: SANCTIONED });
    const checked = await stack.http(b, 'POST', `/api/monitoring/entities/${bEntity.id}/check`);
    expect(checked.status).toBe(200);
    const { value } = await eventually(
      () => stack.http(b, 'GET', '/api/monitoring/alerts?limit=500'),
      (r) => r.body.alerts?.length > 0,
      10_000,
    );
    const bAlert = value.body.alerts[0];
    const hook = await stack.http(b, 'POST', '/api/monitoring/webhooks', {
      url: 'http://127.0.0.1:9/never',
      event_types: ['monitoring.alert'],
    });
    expect(hook.status).toBe(201);
    const bHook = hook.body.webhook.id;

    const attempts: Array<[string, string, unknown?]> = [
      ['PUT', `/api/monitoring/entities/${bEntity.id}`, { monitoring_status: 'paused' }],
      ['PUT', `/api/monitoring/entities/${bEntity.id}`, { monitoring_status: 'stopped' }],
      ['POST', `/api/monitoring/entities/${bEntity.id}/check`],
      ['DELETE', `/api/monitoring/entities/${bEntity.id}`],
      ['POST', `/api/monitoring/alerts/${bAlert.id}/acknowledge`],
      ['POST', '/api/monitoring/bulk/remove', { entityIds: [bEntity.id] }],
      ['DELETE', `/api/monitoring/webhooks/${bHook}`],
      ['GET', `/api/monitoring/webhooks/${bHook}/deliveries`],
    ];
    let succeeded = 0;
    for (const [method, path, body] of attempts) {
      const res = await stack.http(a, method, path, body);
      if (res.status < 400) succeeded++;
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // The listing routes show A only its own: none of B's ids appear.
    const reads: Array<[string, (body: Body) => string[]]> = [
      ['/api/monitoring/entities?limit=500', (r) => r.entities.map((e: { id: string }) => e.id)],
      ['/api/monitoring/entities?status=active&limit=500', (r) => r.entities.map((e: { id: string }) => e.id)],
      ['/api/monitoring/alerts?limit=500', (r) => r.alerts.map((x: { id: string }) => x.id)],
      ['/api/monitoring/webhooks', (r) => r.webhooks.map((w: { id: string }) => w.id)],
    ];
    for (const [path, ids] of reads) {
      const res = await stack.http(a, 'GET', path);
      expect(res.status).toBe(200);
      const seen = ids(res.body);
      if (seen.includes(bEntity.id) || seen.includes(bAlert.id) || seen.includes(bHook)) succeeded++;
    }
    // A's stats, settings and status are A's: B's settings change does not show in A's.
    await stack.http(b, 'PUT', '/api/monitoring/settings', { alert_on_review: false });
    expect((await stack.http(a, 'GET', '/api/monitoring/settings')).body.settings.alert_on_review).toBe(true);
    // A's writes (create, bulk add, settings) land in A's book only.
    await stack.http(a, 'POST', '/api/monitoring/entities', { entity_name: 'Only A', caller: { clientId: b.id } });
    await stack.http(a, 'POST', '/api/monitoring/bulk', { entities: [{ entity_name: 'Only A Bulk' }] });
    const bList = await stack.http(b, 'GET', '/api/monitoring/entities?limit=500');
    if (bList.body.entities.some((e: { entity_name: string }) => e.entity_name.startsWith('Only A'))) succeeded++;
    const bStats = await stack.http(b, 'GET', '/api/monitoring/stats');
    expect(bStats.body.stats.total_monitored).toBe(1);
    expect(succeeded).toBe(0);
    // B still has everything.
    expect(
      (await stack.http(b, 'GET', '/api/monitoring/entities')).body.entities.map((e: { id: string }) => e.id),
    ).toEqual([bEntity.id]);
    expect((await stack.http(b, 'GET', '/api/monitoring/webhooks')).body.webhooks).toHaveLength(1);
    const bAlertNow = (await stack.http(b, 'GET', '/api/monitoring/alerts?limit=500')).body.alerts.find(
      (x: { id: string }) => x.id === bAlert.id,
    );
    expect(bAlertNow.is_acknowledged).toBe(false);
  });

  it('pushes a new alert live over Server-Sent Events (medium tier and up), without polling', async () => {
    expectProblem(await stack.http(starter, 'GET', '/api/monitoring/stream'), 403, 'FEATURE_NOT_IN_PLAN', 'starter stream');
    const controller = new AbortController();
    const response = await fetch(`${stack.gatewayUrl}/api/monitoring/stream`, {
      headers: a.headers,
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const aStream = sseReader(response);
    await aStream.until(/event: ready/, 10_000);
    const e = await add(a, { entity_name: 'Kim Jong Un' });
    await stack.http(a, 'POST', `/api/monitoring/entities/${e.id}/check`);
    await aStream.until(/event: monitoring\.alert\nid: \d+\ndata: .*"entity_name":"Kim Jong Un"/, 10_000);
    // B's stream does not carry A's alerts.
    const bResponse = await fetch(`${stack.gatewayUrl}/api/monitoring/stream`, {
      headers: b.headers,
      signal: controller.signal,
    });
    const bStream = sseReader(bResponse);
    await bStream.until(/event: ready/, 10_000);
    const e2 = await add(a, { entity_name: 'Vladimir Putin' });
    await stack.http(a, 'POST', `/api/monitoring/entities/${e2.id}/check`);
    await aStream.until(/"entity_name":"Vladimir Putin"/, 10_000);
    // A has its alert; B, given two more seconds, gets nothing but what it had.
    await expect(bStream.until(/monitoring\.alert/, 2_000)).rejects.toThrow(/no \/monitoring/);
    expect(bStream.text()).not.toMatch(/Putin|Kim Jong Un/);
    controller.abort();
  });
});

/**
 * Reads a Server-Sent Events response as text. The server's chunks do not follow event bounds
 * (a lone "\n" may come first under load), so waits are on the accumulated text; one read is in
 * flight at a time, and a read that loses the race to the timer is kept, not dropped.
 */
function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let pending: ReturnType<typeof reader.read> | null = null;
  return {
    text: () => text,
    async until(pattern: RegExp, ms: number): Promise<void> {
      const deadline = Date.now() + ms;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${text}`);
        pending ??= reader.read();
        const chunk = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 250))]);
        if (chunk) {
          pending = null;
          if (!chunk.done) text += chunk.value;
        }
      }
    },
  };
}
