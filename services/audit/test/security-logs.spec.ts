import { jest } from '@jest/globals';
import { contracts } from '@vigil/proto';
import { AuditStack, eventually, type Reply } from './harness.js';

jest.setTimeout(180_000);

type Log = {
  id: string;
  event: string;
  timestamp: string;
  details: {
    ip: string | null;
    endpoint: string;
    adminEmail: string | null;
    clientName: string | null;
    clientId: string | null;
    reason: string | null;
  };
};

/** Splits RFC 4180 CSV into rows of cells (quotes, doubled quotes, CRLF inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

describe('security logs: what the gateway sees reaches /api/client/admin/logs through the audit trail', () => {
  const stack = new AuditStack();
  let admin: { token: string; id: string; email: string };
  const asAdmin = () => ({ authorization: `Bearer ${admin.token}` });
  const logs = (query = '') => stack.http('GET', `/api/client/admin/logs${query}`, { headers: asAdmin() });

  /** Polls the admin logs until `match` finds a row; answers the row and how long it took since `since`. */
  async function appears(query: string, match: (log: Log) => boolean, since: number) {
    const { value } = await eventually(
      () => logs(query),
      (r: Reply) => r.status === 200 && (r.body.logs as Log[]).some(match),
      5_000,
    );
    return { log: (value.body.logs as Log[]).find(match)!, elapsedMs: Date.now() - since, reply: value };
  }

  beforeAll(async () => {
    await stack.start();
    admin = await stack.admin();
  });
  afterAll(() => stack.stop());

  it('records a failed API key as FAILED_AUTH with ip, endpoint and reason within 2 s', async () => {
    const sent = Date.now();
    const refused = await stack.http('GET', '/api/v1/status?probe=failed-key', {
      headers: { 'x-api-key': 'f'.repeat(64) },
    });
    expect(refused.status).toBe(401);
    const { log, elapsedMs } = await appears(
      '?eventType=FAILED_AUTH&timeFilter=1h',
      (l) => l.details.endpoint === '/api/v1/status' && Date.parse(l.timestamp) >= sent - 1000,
      sent,
    );
    expect(elapsedMs).toBeLessThan(2_000);
    expect(log).toMatchObject({
      event: 'FAILED_AUTH',
      details: { ip: expect.stringMatching(/127\.0\.0\.1/), reason: 'invalid_api_key', adminEmail: null },
    });
  });

  it('records an admin client creation as ADMIN_ACCESS with the admin, and the creation itself as an admin action', async () => {
    const sent = Date.now();
    const created = await stack.http('POST', '/api/client/clients/create', {
      headers: asAdmin(),
      body: { clientName: 'Audit Created Ltd', tier: 'starter' },
    });
    expect(created.status).toBe(201);
    const { log, elapsedMs } = await appears(
      '?eventType=ADMIN_ACCESS',
      (l) => l.details.endpoint === '/api/client/clients/create' && Date.parse(l.timestamp) >= sent - 1000,
      sent,
    );
    expect(elapsedMs).toBeLessThan(2_000);
    expect(log.details).toMatchObject({ adminEmail: admin.email, ip: expect.stringMatching(/127\.0\.0\.1/) });
    // The action's own record, in the new client's chain, with the actor's id.
    const { value: actions } = await eventually(
      () =>
        stack.sql(
          'audit',
          `SELECT action, actor_id, actor_email, client_id, client_name, chain_id, details FROM admin_actions WHERE client_id = $1`,
          [created.body.id],
        ),
      (rows) => rows.length === 1,
      2_000,
    );
    expect(actions[0]).toEqual({
      action: 'client.created',
      actor_id: admin.id,
      actor_email: admin.email,
      client_id: created.body.id,
      client_name: 'Audit Created Ltd',
      chain_id: `client:${created.body.id}`,
      details: { tier: 'starter' },
    });
    // The key itself is never recorded.
    expect(JSON.stringify(actions)).not.toContain(created.body.api_key);
  });

  it('records a rate-limited burst as RATE_LIMIT_VIOLATION naming the client within 2 s', async () => {
    const created = await stack.http('POST', '/api/client/clients/create', {
      headers: asAdmin(),
      body: { clientName: 'Burst Bank', tier: 'starter' },
    });
    expect(created.status).toBe(201);
    const key = created.body.api_key as string;
    // A starter key may make 10 requests a minute: the burst's 11th and 12th are refused.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await stack.http('GET', '/api/v1/status', { headers: { 'x-api-key': key } })).status);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const sent = Date.now();
    const { log, elapsedMs } = await appears(
      '?eventType=RATE_LIMIT_VIOLATION&searchTerm=Burst%20Bank',
      (l) => l.details.clientName === 'Burst Bank',
      sent,
    );
    expect(elapsedMs).toBeLessThan(2_000);
    expect(log.details).toMatchObject({
      endpoint: '/api/v1/status',
      clientId: created.body.id,
      reason: 'tier_starter',
    });
    // Exactly the two refused requests, once each.
    await eventually(
      () => logs('?eventType=RATE_LIMIT_VIOLATION&searchTerm=Burst%20Bank'),
      (r) => r.body.total === 2,
      2_000,
    );
    // The key's first use was a CLIENT_ACCESS.
    expect((await logs('?eventType=CLIENT_ACCESS&searchTerm=Burst%20Bank')).body.total).toBeGreaterThanOrEqual(1);
  });

  it('answers the panel: summary counts, type/time/search filters, paging', async () => {
    const all = await logs();
    expect(all.status).toBe(200);
    const { summary, total, limit, offset } = all.body;
    expect(limit).toBe(100);
    expect(offset).toBe(0);
    expect(summary.total).toBe(total);
    expect(summary.total).toBe(
      summary.failedAuth + summary.adminAccess + summary.clientAccess + summary.suspicious + summary.rateLimited,
    );
    expect(summary.failedAuth).toBeGreaterThanOrEqual(2);
    expect(summary.adminAccess).toBeGreaterThanOrEqual(2);
    expect(summary.rateLimited).toBe(2);
    const failed = await logs('?eventType=FAILED_AUTH');
    expect(failed.body.total).toBe(summary.failedAuth);
    expect((failed.body.logs as Log[]).every((l) => l.event === 'FAILED_AUTH')).toBe(true);
    // The summary follows the time filter and search term, not the event type. (Each read of the
    // panel is itself an ADMIN_ACCESS, stored a moment later, so that count may have grown.)
    const { adminAccess, total: summed, ...others } = failed.body.summary;
    expect(others).toEqual({
      failedAuth: summary.failedAuth,
      clientAccess: summary.clientAccess,
      suspicious: summary.suspicious,
      rateLimited: summary.rateLimited,
    });
    expect(adminAccess).toBeGreaterThanOrEqual(summary.adminAccess);
    expect(summed - adminAccess).toBe(summary.total - summary.adminAccess);
    const paged = await logs('?eventType=FAILED_AUTH&limit=1&offset=1');
    expect(paged.body.logs).toHaveLength(1);
    expect(paged.body.logs[0].id).toBe(failed.body.logs[1].id);
    // Newest first.
    const times = (all.body.logs as Log[]).map((l) => Date.parse(l.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await logs('?searchTerm=no-such-thing-anywhere')).body).toMatchObject({ logs: [], total: 0 });
    const everyType = (await logs('?eventType=all&timeFilter=all')).body;
    expect(everyType.total).toBe(everyType.summary.total);
    expect(everyType.total).toBeGreaterThan(total);
    // Bad filters are a 400 problem, not a 500.
    for (const bad of ['?timeFilter=2y', '?eventType=LOGIN', '?limit=0', '?offset=-1']) {
      const res = await logs(bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
  });

  it('exports CSV in which a client named =HYPERLINK("http://x","y") is text, not a formula', async () => {
    const hostile = '=HYPERLINK("http://x","y")';
    const created = await stack.http('POST', '/api/client/clients/create', {
      headers: asAdmin(),
      body: { clientName: hostile, tier: 'starter' },
    });
    expect(created.status).toBe(201);
    // Its key's first use records a CLIENT_ACCESS carrying the client's name.
    expect(
      (await stack.http('GET', '/api/v1/status', { headers: { 'x-api-key': created.body.api_key } })).status,
    ).not.toBe(401);
    await appears('?eventType=CLIENT_ACCESS', (l) => l.details.clientName === hostile, Date.now());

    const csv = await stack.http('GET', '/api/client/admin/logs/export?eventType=CLIENT_ACCESS&timeFilter=24h', {
      headers: asAdmin(),
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="security-logs-.*\.csv"/);
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual([
      'id',
      'event',
      'timestamp',
      'ip',
      'endpoint',
      'method',
      'admin_email',
      'client_name',
      'client_id',
      'user_id',
      'request_id',
      'reason',
      'hash',
    ]);
    const nameColumn = rows[0]!.indexOf('client_name');
    const row = rows.find((r) => r[nameColumn]?.includes('HYPERLINK'))!;
    expect(row[nameColumn]).toBe(`'${hostile}`);
    expect(csv.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    // No cell of the file starts like a formula.
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Same filters as the panel: every row is a CLIENT_ACCESS, as many as the panel counts.
    const panel = await logs('?eventType=CLIENT_ACCESS&timeFilter=24h');
    expect(rows.length - 1).toBe(panel.body.total);
    expect(rows.slice(1).every((r) => r[1] === 'CLIENT_ACCESS')).toBe(true);
  });

  it('gives non-admins 403 (and no session 401) on every admin route, and records the attempt', async () => {
    const member = await stack.member('large', `member-${Date.now()}@example.com`);
    const asMember = { authorization: `Bearer ${member.token}` };
    const routes: Array<[string, string]> = [
      ['GET', '/api/client/admin/logs'],
      ['GET', '/api/client/admin/logs/export'],
      ['GET', '/api/client/clients'],
      ['POST', '/api/client/clients/create'],
      ['POST', '/api/client/admin/lists/refresh'],
    ];
    for (const [method, path] of routes) {
      const forbidden = await stack.http(method, path, {
        headers: asMember,
        ...(method === 'POST' ? { body: { clientName: 'X', tier: 'starter' } } : {}),
      });
      expect([path, forbidden.status, forbidden.body?.code]).toEqual([path, 403, 'FORBIDDEN']);
      expect(forbidden.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const anonymous = await stack.http(method, path);
      expect([path, anonymous.status]).toEqual([path, 401]);
    }
    // The member's key does not make it an admin either.
    const withKey = await stack.http('GET', '/api/client/admin/logs', {
      headers: { ...asMember, 'x-api-key': member.key },
    });
    expect(withKey.status).toBe(403);
    const { log } = await appears(
      '?eventType=SUSPICIOUS_ACTIVITY&searchTerm=admin_route_without_admin_role',
      (l) => l.details.endpoint === '/api/client/admin/logs',
      Date.now(),
    );
    expect(log.details.reason).toBe('admin_route_without_admin_role');
  });

  it('counts the overview’s security alerts: failed auth, rate-limit violations and suspicious activity, not access', async () => {
    // The previous test's refusals may still be on their way to the trail: read all three until they agree.
    const { value } = await eventually(
      async () => {
        const { summary } = (await logs('?timeFilter=24h')).body;
        const count = await stack.request(contracts.audit.securityAlertCount, { sinceHours: 24 });
        const lastHour = await stack.request(contracts.audit.securityAlertCount, { sinceHours: 1 });
        return { alerts: summary.failedAuth + summary.rateLimited + summary.suspicious, count, lastHour };
      },
      (v) => v.count.securityAlerts === v.alerts && v.lastHour.securityAlerts === v.alerts,
      5_000,
    );
    const alerts = value.alerts;
    expect(alerts).toBeGreaterThanOrEqual(4);
    expect(value.count).toEqual({ securityAlerts: alerts, sinceHours: 24 });
    // The events were all recorded just now: none of them is older than an hour either.
    expect(value.lastHour).toEqual({ securityAlerts: alerts, sinceHours: 1 });
  });
});
