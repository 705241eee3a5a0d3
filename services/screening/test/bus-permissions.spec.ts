import { jest } from '@jest/globals';
// Who may speak on the bus (issue #33's first finding): the private nats-server every test
// stack starts has the authorization every deployment has (@vigil/platform/bus). A process with
// no key is turned away; a service's key lets it say only what the permission table gives it.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { TestStack } from '@vigil/platform/testing';
import { SERVICE_NAMES, contracts, requestSubjectsOf, streams, subjects, type ServiceName } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

jest.setTimeout(90_000);

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stack = new TestStack(SERVICES_DIR);
const clientId = randomUUID();
/** What only services call, never the gateway (proto/src/bus.ts SERVICE_ONLY). */
const SERVICE_ONLY_CALLS: readonly string[] = [
  subjects.clients.provision,
  subjects.clients.get,
  subjects.clients.notificationSettings,
  subjects.screening.rescreen,
];
/**
 * The README's who-calls-whom table, written out here rather than read from proto's busCalls, so
 * that a change to the table the servers are configured from fails this test until it is argued.
 */
const SERVICE_CALLS: Record<Exclude<ServiceName, 'gateway'>, readonly string[]> = {
  monitoring: [subjects.screening.rescreen, subjects.screening.entity],
  billing: [
    subjects.clients.provision,
    subjects.clients.get,
    subjects.clients.notificationSettings,
    subjects.clients.updateSubscription,
  ],
  auth: [],
  screening: [],
  audit: [],
};

beforeAll(async () => {
  await stack.startNats();
  await stack.migrate('screening');
  const lists = await mkdtemp(join(tmpdir(), 'vigil-bus-lists-'));
  stack.spawn('screening', { LISTS_DIR: lists, LISTS_SCHEDULER: 'false', INDEX_RECONCILE_SECONDS: '3600' });
  await stack.waitForHealth('screening');
});

afterAll(() => stack.stop());

/** A request as `identity` in the envelope the services read: the reply's text, or what went wrong. */
async function ask(nc: NatsConnection, subject: string, data: unknown): Promise<string> {
  try {
    const reply = await nc.request(subject, JSON.stringify({ pattern: subject, data, id: '1' }), { timeout: 1_500 });
    return reply.string();
  } catch (error) {
    return `no answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Everything the server refused `nc`, as the client heard it. */
function refusals(nc: NatsConnection): string[] {
  const heard: string[] = [];
  void (async () => {
    for await (const status of nc.status()) if (status.type === 'error') heard.push(status.error.message);
  })();
  return heard;
}

describe('the bus', () => {
  it('refuses a connection without credentials', async () => {
    await expect(connect({ servers: stack.natsUrl, maxReconnectAttempts: 0, timeout: 2_000 })).rejects.toThrow(
      /authorization/i,
    );
  });

  it("answers the gateway's request for a tenant's screening logs, and nobody else's", async () => {
    const gateway = await stack.connectNats('gateway');
    const answered = JSON.parse(await ask(gateway, subjects.screening.logs, { clientId })) as { response?: unknown };
    expect(answered.response).toMatchObject({ total: 0 });

    for (const forger of ['screening', 'billing', 'audit'] satisfies ServiceName[]) {
      const nc = await stack.connectNats(forger);
      const heard = refusals(nc);
      const answer = await ask(nc, subjects.screening.logs, { clientId });
      expect(answer).toMatch(/^no answer/);
      expect([answer, ...heard].join('\n')).toMatch(/Permissions Violation for Publish to "screening\.v1\.logs\.list"/);
    }
  });

  it("keeps screening's key off the audit trail's streams and off a tenant's live push", async () => {
    const screening = await stack.connectNats('screening');
    const heard = refusals(screening);
    const forged = { id: randomUUID(), event: 'ADMIN_ACCESS', timestamp: new Date().toISOString(), details: {} };

    // The gateway's streams that audit hash-chains: a JetStream publish is refused, nothing is stored.
    const js = jetstream(screening);
    for (const subject of [
      subjects.gateway.securityEvent,
      subjects.gateway.adminAction,
      subjects.monitoring.clientChanged,
    ])
      await expect(js.publish(subject, JSON.stringify(forged), { timeout: 1_500 })).rejects.toThrow();
    const jsm = await jetstreamManager(stack.nc);
    for (const stream of [streams.security, streams.adminActions]) {
      const info = await jsm.streams.info(stream.name).catch(() => undefined);
      expect(info?.state.messages ?? 0).toBe(0);
    }

    // A tenant's live push: the gateway, listening as itself, hears nothing from screening.
    const gateway = await stack.connectNats('gateway');
    const pushed: string[] = [];
    gateway.subscribe(subjects.monitoring.push(clientId), {
      callback: (_error, msg) => {
        pushed.push(msg.string());
      },
    });
    await gateway.flush();
    screening.publish(subjects.monitoring.push(clientId), JSON.stringify({ forged: true }), { headers: headers() });
    await screening.flush();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pushed).toEqual([]);
    expect(heard.join('\n')).toMatch(/Permissions Violation for Publish to "monitoring\.v1\.push\./);
    expect(heard.join('\n')).toMatch(/Permissions Violation for Publish to "security\.v1\.event"/);
    // A client's monitoring changes (its audit chain) come from monitoring alone.
    expect(heard.join('\n')).toMatch(/Permissions Violation for Publish to "monitoring\.v1\.client-changed"/);
  });

  // The tenancy argument (README, Security notes): services may believe the clientId/actorId in a
  // request because only the gateway, which authenticated the caller, may publish it; the few
  // service-to-service calls are the table's busCalls. Here, against the real server, for every
  // request subject there is: each service whose table does not list it is refused.
  it('refuses every request subject to every service the table does not let call it', async () => {
    const every = [...new Set(SERVICE_NAMES.flatMap((service) => requestSubjectsOf(service)))];
    expect(every.length).toBeGreaterThan(100);
    for (const service of SERVICE_NAMES) {
      const allowed =
        service === 'gateway' ? every.filter((s) => !SERVICE_ONLY_CALLS.includes(s)) : SERVICE_CALLS[service];
      const forbidden = every.filter((subject) => !allowed.includes(subject));
      const nc = await stack.connectNats(service);
      const heard = refusals(nc);
      // A plain publish: refused by the server, so nothing reaches screening's handlers.
      for (const subject of forbidden) nc.publish(subject, JSON.stringify({ pattern: subject, data: { clientId } }));
      await nc.flush().catch(() => undefined);
      const deadline = Date.now() + 5_000;
      const refused = () => new Set(heard.map((m) => /Publish to "([^"]+)"/.exec(m)?.[1]));
      while (refused().size < forbidden.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect({ service, unrefused: forbidden.filter((subject) => !refused().has(subject)) }).toEqual({
        service,
        unrefused: [],
      });
      await nc.close();
    }
  });

  it("keeps each service's JetStream API to its own streams: no account info, no other's stream", async () => {
    // Screening's own stream answers (and screening, booted above, created it without the account check).
    const screening = await stack.connectNats('screening');
    const heard = refusals(screening);
    const own = await screening.request(`$JS.API.STREAM.INFO.${streams.lists.name}`, '', { timeout: 1_500 });
    expect(own.json<{ config?: { name?: string } }>().config?.name).toBe(streams.lists.name);
    for (const subject of ['$JS.API.INFO', `$JS.API.STREAM.INFO.${streams.security.name}`, '$JS.API.STREAM.NAMES'])
      await expect(screening.request(subject, '', { timeout: 1_000 })).rejects.toThrow();
    // Audit reads SECURITY only through its own consumer: not the account, not the stream's other consumers.
    const audit = await stack.connectNats('audit');
    const auditHeard = refusals(audit);
    for (const subject of ['$JS.API.INFO', `$JS.API.CONSUMER.INFO.${streams.bulkJobs.name}.bulk-workers`])
      await expect(audit.request(subject, '', { timeout: 1_000 })).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.join('\n')).toMatch(/Permissions Violation for Publish to "\$JS\.API\.INFO"/);
    expect(heard.join('\n')).toMatch(/Permissions Violation for Publish to "\$JS\.API\.STREAM\.INFO\.SECURITY"/);
    expect(auditHeard.join('\n')).toMatch(/Permissions Violation for Publish to "\$JS\.API\.INFO"/);
  });

  it("lets no service subscribe to another's replies or requests", async () => {
    const billing = await stack.connectNats('billing');
    const heard = refusals(billing);
    billing.subscribe('_INBOX_gateway.>');
    billing.subscribe(subjects.screening.logs);
    await billing.flush().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.join('\n')).toMatch(/Permissions Violation for Subscription to "_INBOX_gateway\.>"/);
    expect(heard.join('\n')).toMatch(/Permissions Violation for Subscription to "screening\.v1\.logs\.list"/);
    // And the gateway's own request still finds its answer on its own inbox.
    const gateway = await stack.connectNats('gateway');
    await expect(stack.request(contracts.health('screening'), {})).resolves.toMatchObject({
      status: expect.any(String),
    });
    expect(await ask(gateway, subjects.health('screening'), {})).toContain('"response"');
  });
});
