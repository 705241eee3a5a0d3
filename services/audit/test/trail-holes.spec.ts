import { jest } from '@jest/globals';
import { contracts } from '@vigil/proto';
import { AuditStack, PASSWORD, eventually } from './harness.js';

jest.setTimeout(180_000);

type Row = Record<string, unknown> & { event_type: string; endpoint: string; request_id: string | null };

/**
 * Issue #33, "audit without holes": what reaches the immutable security log holds no secret,
 * cannot be stuffed by a caller without credentials, and includes the failed sign-ins.
 */
describe('the security log: no raw keys, bounded unauthenticated events, failed sign-ins kept', () => {
  const stack = new AuditStack();
  let admin: { token: string; id: string; email: string };

  beforeAll(async () => {
    await stack.start();
    admin = await stack.admin();
  });
  afterAll(() => stack.stop());

  /** The security_events rows `match` accepts, once at least `count` are stored. */
  const stored = (match: string, params: unknown[], count = 1) =>
    eventually(
      () => stack.sql('audit', `SELECT * FROM security_events WHERE ${match} ORDER BY seq`, params) as Promise<Row[]>,
      (rows) => rows.length >= count,
      5_000,
    ).then(({ value }) => value);

  it('records an admin looking a client up by API key with the key’s prefix, never the key', async () => {
    const created = await stack.http('POST', '/api/client/clients/create', {
      headers: { authorization: `Bearer ${admin.token}` },
      body: { clientName: 'Looked Up Ltd', tier: 'starter' },
    });
    expect(created.status).toBe(201);
    const key = created.body.api_key as string;
    const found = await stack.http('GET', `/api/client/clients/api-key/${key}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(found.status).toBe(200);
    expect(found.body.client_name).toBe('Looked Up Ltd');

    const [row] = await stored(`event_type = 'ADMIN_ACCESS' AND endpoint LIKE '/api/client/clients/api-key/%'`, []);
    expect(row!.endpoint).toContain(key.slice(0, 8));
    // Nowhere in the security log, in any column of any row.
    const everything = await stack.sql('audit', `SELECT * FROM security_events`);
    expect(JSON.stringify(everything)).not.toContain(key);
  });

  it('keeps what a caller without credentials writes short, and the request id its own', async () => {
    const stuffing = 'z'.repeat(8_000);
    const refused = await stack.http('GET', `/api/client/clients/api-key/${stuffing}`, {
      headers: { authorization: 'Bearer not-a-token', 'x-request-id': 'chosen-by-the-caller' },
    });
    expect(refused.status).toBe(401);
    const [row] = await stored(`event_type = 'FAILED_AUTH' AND endpoint LIKE '/api/client/clients/api-key/z%'`, []);
    expect(row!.endpoint.length).toBeLessThanOrEqual(256);
    expect(row!.request_id).not.toBe('chosen-by-the-caller');
    expect(JSON.stringify(row).length).toBeLessThan(2_000);
  });

  it('stores failed password and MFA sign-ins as FAILED_AUTH', async () => {
    const member = await stack.member('medium', 'signs-in-wrong@example.com');
    const wrong = await stack.http('POST', '/auth/v1/token?grant_type=password', {
      body: { email: 'signs-in-wrong@example.com', password: `not-${PASSWORD}` },
    });
    expect(wrong.status).toBe(401);
    const [password] = await stored(`event_type = 'FAILED_AUTH' AND reason = 'invalid_credentials'`, []);
    expect(password).toMatchObject({ endpoint: '/auth/v1/token', method: 'POST', actor_id: member.userId });
    expect(password!.ip).toMatch(/127\.0\.0\.1/);

    const factor = await stack.request(contracts.auth.enrollFactor, { accessToken: member.token });
    const challenge = await stack.request(contracts.auth.challengeFactor, {
      accessToken: member.token,
      factor_id: factor.id,
    });
    await expect(
      stack.request(contracts.auth.verifyFactor, {
        accessToken: member.token,
        factor_id: factor.id,
        challenge_id: challenge.id,
        code: '000000',
      }),
    ).rejects.toMatchObject({ code: expect.any(String) });
    const [mfa] = await stored(`event_type = 'FAILED_AUTH' AND reason = 'invalid_mfa_code'`, []);
    expect(mfa).toMatchObject({ endpoint: '/auth/v1/factors/verify', actor_id: member.userId });
  });
});
