import { busCalls, busPermissionsOf, durableConsumers, inboxPrefixOf, requestSubjectsOf, streamOwners } from './bus.js';
import { SERVICE_NAMES, type ServiceName } from './services.js';
import { streams, subjects } from './subjects.js';

const permissions = Object.fromEntries(SERVICE_NAMES.map((s) => [s, busPermissionsOf(s)])) as Record<
  ServiceName,
  ReturnType<typeof busPermissionsOf>
>;
const publishers = (subject: string) => SERVICE_NAMES.filter((s) => permissions[s].publish.includes(subject));
const subscribers = (subject: string) =>
  SERVICE_NAMES.filter((s) => permissions[s].subscribe.some((entry) => entry.split(' ')[0] === subject));

describe('the bus permission table', () => {
  it('gives every request subject one owner, who answers it in its own queue group', () => {
    const owners = new Map<string, ServiceName[]>();
    for (const service of SERVICE_NAMES)
      for (const subject of requestSubjectsOf(service)) owners.set(subject, [...(owners.get(subject) ?? []), service]);
    for (const [subject, owner] of owners) {
      expect({ subject, owner }).toEqual({ subject, owner: [owner[0]] });
      expect(permissions[owner[0]!].subscribe).toContain(`${subject} ${owner[0]}`);
      expect({ subject, subscribers: subscribers(subject) }).toEqual({ subject, subscribers: [owner[0]] });
    }
    expect(owners.get(subjects.clients.team.listMembers)).toEqual(['auth']);
    expect(owners.get(subjects.screening.logs)).toEqual(['screening']);
  });

  it('lets a tenant-scoped request come from the gateway only', () => {
    for (const subject of [subjects.screening.logs, subjects.clients.team.listMembers, subjects.audit.evidence])
      expect({ subject, callers: publishers(subject) }).toEqual({ subject, callers: ['gateway'] });
  });

  it('lets services call one another only as the README’s who-calls-whom table says', () => {
    // Services believe the tenant named in a request because only the gateway may publish one;
    // a new service-to-service call changes that argument (README, Security notes): say so there.
    const serviceCalls = Object.fromEntries(
      SERVICE_NAMES.filter((s) => s !== 'gateway').map((s) => [s, [...busCalls[s]].sort()]),
    );
    expect(serviceCalls).toEqual({
      auth: [],
      screening: [],
      monitoring: [subjects.screening.rescreen, subjects.screening.entity].sort(),
      billing: [
        subjects.clients.provision,
        subjects.clients.updateSubscription,
        subjects.clients.get,
        subjects.clients.notificationSettings,
      ].sort(),
      audit: [],
    });
    // Every request subject has a caller, and each caller's list names only request subjects.
    const requests = new Set(SERVICE_NAMES.flatMap((s) => requestSubjectsOf(s)));
    for (const subject of requests)
      expect({ subject, callers: publishers(subject).length > 0 }).toEqual({ subject, callers: true });
    for (const service of SERVICE_NAMES)
      for (const subject of busCalls[service])
        expect({ service, subject, request: requests.has(subject) }).toMatchObject({ request: true });
  });

  it('keeps billing-only subjects away from the gateway, and service calls to what each service makes', () => {
    for (const subject of [subjects.clients.provision, subjects.clients.get, subjects.clients.notificationSettings])
      expect({ subject, callers: publishers(subject) }).toEqual({ subject, callers: ['billing'] });
    // Bulk screens name the gateway's verified actor; monitoring's re-screens have a subject of their own.
    expect(publishers(subjects.screening.bulkScreen)).toEqual(['gateway']);
    expect(publishers(subjects.screening.rescreen)).toEqual(['monitoring']);
    expect(busCalls.audit).toEqual([]);
  });

  it("publishes each stream's subjects and manages the stream only from its owner", () => {
    for (const [key, owner] of Object.entries(streamOwners) as [keyof typeof streams, ServiceName][]) {
      for (const subject of streams[key].subjects)
        expect({ subject, publishers: publishers(subject) }).toEqual({ subject, publishers: [owner] });
      for (const op of ['CREATE', 'UPDATE'])
        expect(publishers(`$JS.API.STREAM.${op}.${streams[key].name}`)).toEqual([owner]);
    }
    // Nobody may delete or purge a stream, or anything else the table does not name.
    for (const service of SERVICE_NAMES)
      for (const subject of permissions[service].publish)
        expect({ service, subject, broad: /(STREAM\.(DELETE|PURGE)|^\$JS\.API\.>$|^>$)/.test(subject) }).toMatchObject({
          broad: false,
        });
  });

  it('reads the audit streams only through audit’s named consumers, with their filters', () => {
    const audit = permissions.audit.publish.filter((s) => s.startsWith('$JS.API.CONSUMER.CREATE.'));
    expect(audit).toEqual(
      expect.arrayContaining([
        `$JS.API.CONSUMER.CREATE.SECURITY.audit-security.${subjects.gateway.securityEvent}`,
        `$JS.API.CONSUMER.CREATE.ADMIN_ACTIONS.audit-admin-actions.${subjects.gateway.adminAction}`,
        `$JS.API.CONSUMER.CREATE.AUTH_EVENTS.audit-auth-events.${subjects.auth.failedAuth}`,
        `$JS.API.CONSUMER.CREATE.AUTH_EVENTS.audit-client-changes.${subjects.auth.clientChanged}`,
        `$JS.API.CONSUMER.CREATE.MONITORING_EVENTS.audit-monitoring-changes.${subjects.monitoring.clientChanged}`,
      ]),
    );
    expect(audit.every((s) => !s.includes('*') && !s.includes('>'))).toBe(true);
    expect(
      Object.values(durableConsumers)
        .filter((c) => c.service === 'audit')
        .map((c) => c.stream),
    ).toEqual(['security', 'screenings', 'adminActions', 'authEvents', 'authEvents', 'monitoringEvents']);
    // A client's monitoring changes reach its chain from monitoring alone.
    expect(publishers(subjects.monitoring.clientChanged)).toEqual(['monitoring']);
  });

  it("lets only monitoring push into a tenant's live stream, and only the gateway hear it", () => {
    expect(publishers(subjects.monitoring.pushAll)).toEqual(['monitoring']);
    expect(subscribers(subjects.monitoring.pushAll)).toEqual(['gateway']);
  });

  it('gives each service an inbox of its own', () => {
    for (const service of SERVICE_NAMES) {
      const inboxes = SERVICE_NAMES.flatMap((s) => permissions[s].subscribe.filter((e) => e.startsWith('_INBOX')));
      expect(inboxes.filter((entry) => entry === `${inboxPrefixOf(service)}.>`)).toHaveLength(1);
      expect(permissions[service].subscribe).toContain(`${inboxPrefixOf(service)}.>`);
    }
  });

  it("reaches the JetStream API only for a service's own streams and consumers, never the account's", () => {
    const ownStreams = (service: ServiceName) =>
      new Set<string>([
        ...Object.entries(streamOwners)
          .filter(([, owner]) => owner === service)
          .map(([key]) => streams[key as keyof typeof streams].name),
        ...Object.values(durableConsumers)
          .filter((c) => c.service === service)
          .map((c) => streams[c.stream].name),
      ]);
    for (const service of SERVICE_NAMES) {
      const api = permissions[service].publish.filter((s) => s.startsWith('$JS.'));
      // The account's usage and the list of every stream are an operator's, not a service's.
      expect({ service, account: api.filter((s) => /^\$JS\.API\.(INFO|STREAM\.(NAMES|LIST))$/.test(s)) }).toEqual({
        service,
        account: [],
      });
      // Every other call names a stream the service owns or reads through its own consumer.
      for (const subject of api) {
        const stream = /^\$JS\.(?:API\.(?:STREAM\.\w+|CONSUMER(?:\.DURABLE)?\.\w+(?:\.\w+)?)|ACK)\.([A-Z_]+)/.exec(
          subject,
        )?.[1];
        expect({ service, subject, own: stream !== undefined && ownStreams(service).has(stream) }).toEqual({
          service,
          subject,
          own: true,
        });
      }
    }
  });
});
