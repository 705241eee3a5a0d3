import { jest } from '@jest/globals';
import { contracts, type EvidenceRecord } from '@vigil/proto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MonitoringStack, eventually } from './harness.js';

jest.setTimeout(180_000);

// Issue #33, "audit without holes": a client's changes to its monitoring settings and webhooks
// reach the client's audit chain, naming who made them (the signed-in member, or the API key by
// its prefix when a bank's server made the change with the key alone), never the signing secret.

describe("monitoring changes on the client's audit chain", () => {
  const stack = new MonitoringStack();

  beforeAll(() => stack.start(['auth', 'monitoring', 'gateway', 'audit']));
  afterAll(() => stack.stop());

  /** The client's monitoring records on its chain, in chain order. */
  const monitoringRecords = async (clientId: string) =>
    (await stack.request(contracts.audit.evidence, { clientId })).records.filter((r) =>
      r.action?.startsWith('monitoring.'),
    );

  it('stores settings changes and webhook registrations and deletions with their actor, without the secret', async () => {
    const member = await stack.member('medium', `owner-${Date.now()}@bank.example`);
    const { headers } = member;
    const keyOnly = { headers: { 'x-api-key': member.key } };

    const settings = await stack.http(member, 'PUT', '/api/monitoring/settings', { alert_on_review: false });
    expect(settings.status).toBe(200);
    const created = await stack.http({ headers }, 'POST', '/api/monitoring/webhooks', {
      url: 'http://127.0.0.1:9/vigil',
      event_types: ['monitoring.alert'],
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_/);
    // A bank's server, with the key alone, deletes it.
    expect((await stack.http(keyOnly, 'DELETE', `/api/monitoring/webhooks/${webhook.id}`)).status).toBe(200);

    const { value: records } = await eventually(
      () => monitoringRecords(member.id),
      (r) => r.length === 3,
      20_000,
    );
    const byAction = new Map<string, EvidenceRecord>(records.map((r) => [r.action!, r]));

    const changed = byAction.get('monitoring.settings.changed')!;
    expect(changed).toMatchObject({ kind: 'admin_action', chain: `client:${member.id}`, actorId: member.userId });
    expect(changed.details).toMatchObject({ actor_kind: 'user', changed: { alert_on_review: false } });
    expect(changed.details).toMatchObject({ previous: { alert_on_review: true }, now: { alert_on_review: false } });
    expect(changed.canonical).toContain(member.userId);

    const registered = byAction.get('monitoring.webhook.registered')!;
    expect(registered.actorId).toBe(member.userId);
    expect(registered.details).toMatchObject({
      webhook_id: webhook.id,
      url: 'http://127.0.0.1:9/vigil',
      event_types: ['monitoring.alert'],
    });

    const deleted = byAction.get('monitoring.webhook.deleted')!;
    const prefix = String(deleted.details?.key_prefix);
    // The key's prefix names the key: never the whole key.
    expect(member.key.startsWith(prefix) && prefix.length < member.key.length).toBe(true);
    expect(deleted).toMatchObject({ actorId: `api_key:${prefix}` });
    expect(deleted.details).toMatchObject({ actor_kind: 'api_key', webhook_id: webhook.id });

    // Neither the signing secret nor the API key is anywhere in the evidence.
    const evidence = JSON.stringify(await stack.request(contracts.audit.evidence, { clientId: member.id }));
    expect(evidence).not.toContain(secret.slice('whsec_'.length));
    expect(evidence).not.toContain(member.key);
  });

  it('stores a webhook monitoring disabled itself (its endpoint answered 410 Gone), naming the system', async () => {
    const member = await stack.member('medium', `gone-${Date.now()}@bank.example`);
    const gone = createServer((_req, res) => res.writeHead(410).end());
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/retired`;
      const created = await stack.http(member, 'POST', '/api/monitoring/webhooks', {
        url,
        event_types: ['monitoring.alert'],
      });
      expect(created.status).toBe(201);
      const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
      expect((await stack.http(member, 'POST', `/api/monitoring/webhooks/${webhook.id}/test`)).status).toBe(200);
      const listed = await stack.http(member, 'GET', '/api/monitoring/webhooks');
      expect(listed.body.webhooks[0]).toMatchObject({ id: webhook.id, enabled: false });

      const { value: records } = await eventually(
        () => monitoringRecords(member.id),
        (r) => r.some((record) => record.action === 'monitoring.webhook.disabled'),
        20_000,
      );
      const disabled = records.find((r) => r.action === 'monitoring.webhook.disabled')!;
      expect(disabled).toMatchObject({ actorId: 'system', chain: `client:${member.id}` });
      expect(disabled.details).toMatchObject({ actor_kind: 'system', webhook_id: webhook.id, url });
      expect(JSON.stringify(records)).not.toContain(secret.slice('whsec_'.length));
    } finally {
      await new Promise((resolve) => gone.close(resolve));
    }
  });
});
