import type { Contract } from './contract.js';
import { contracts } from './contracts.js';
import { SERVICE_NAMES, type ServiceName } from './services.js';
import { streams, subjects } from './subjects.js';

// Who may say what on the bus: the one table nats-server's authorization is generated from
// (`natsAuthorization` in @vigil/platform/bus, for npm start, the test harness, npm test, the
// suites' private stacks and k8s). What a service answers, owns and publishes is derived from
// `contracts`, `streams` and the event subjects; what it calls and follows is written here,
// by hand, because that is the decision the table exists to make visible.

type StreamKey = keyof typeof streams;

/** Who answers each request subject: the top-level group of `contracts` names its owner. */
const REQUEST_OWNERS = {
  screening: 'screening',
  monitoring: 'monitoring',
  auth: 'auth',
  clients: 'auth',
  billing: 'billing',
  audit: 'audit',
} as const satisfies Record<Exclude<keyof typeof contracts, 'health' | 'metricsSummary'>, ServiceName>;

/** Every request subject in a group of `contracts`, however deeply nested. */
function requestSubjectsIn(group: unknown): string[] {
  if (typeof group !== 'object' || group === null) return [];
  if ((group as Contract).kind === 'rpc') return [(group as Contract).subject];
  return Object.values(group).flatMap(requestSubjectsIn);
}

/** The request subjects a service answers (in its queue group), health and metrics included. */
export function requestSubjectsOf(service: ServiceName): string[] {
  const owned = Object.entries(REQUEST_OWNERS)
    .filter(([, owner]) => owner === service)
    .flatMap(([group]) => requestSubjectsIn(contracts[group as keyof typeof REQUEST_OWNERS]));
  return [subjects.health(service), subjects.metricsSummary(service), ...owned];
}

/**
 * Request subjects only services call, never the gateway: billing provisioning a paying client
 * and reading what it must e-mail; monitoring's re-screens. Everything else the gateway may ask (it is the edge that
 * turns HTTP into requests; its guards decide who may reach which route).
 */
const SERVICE_ONLY = [
  subjects.clients.provision,
  subjects.clients.get,
  subjects.clients.notificationSettings,
  // Logged as run by monitoring: the gateway screens as the member or key it verified, never as it.
  subjects.screening.rescreen,
];

/** Who calls whom: the request subjects each service may publish. */
export const busCalls: Record<ServiceName, readonly string[]> = {
  gateway: SERVICE_NAMES.flatMap((service) => requestSubjectsOf(service)).filter(
    (subject) => !SERVICE_ONLY.includes(subject as (typeof SERVICE_ONLY)[number]),
  ),
  // Re-screening monitored entities and list deltas (on its own subject: logged as monitoring's).
  monitoring: [subjects.screening.rescreen, subjects.screening.entity],
  // Checkout completion provisions the client; subscription changes and quota e-mails read it.
  billing: [
    subjects.clients.provision,
    subjects.clients.updateSubscription,
    subjects.clients.get,
    subjects.clients.notificationSettings,
  ],
  auth: [],
  screening: [],
  audit: [],
};

/** Core-NATS events (no JetStream): who publishes each, and who follows it (queue group or every replica). */
const CORE_EVENTS: readonly { subject: string; publisher: ServiceName; followers: readonly Follower[] }[] = [
  { subject: subjects.auth.sessionRevoked, publisher: 'auth', followers: [{ service: 'gateway' }] },
  { subject: subjects.auth.memberChanged, publisher: 'auth', followers: [{ service: 'gateway' }] },
  { subject: subjects.clients.keyRevoked, publisher: 'auth', followers: [{ service: 'gateway' }] },
  ...[
    subjects.billing.subscriptionActivated,
    subjects.billing.tierChanged,
    subjects.billing.paymentFailed,
    subjects.billing.subscriptionCancelled,
  ].map((subject) => ({ subject, publisher: 'billing' as const, followers: [{ service: 'gateway' as const }] })),
  // A client's live push: monitoring publishes, the gateway holding that client's stream listens.
  { subject: subjects.monitoring.pushAll, publisher: 'monitoring', followers: [{ service: 'gateway' }] },
  // QUOTA is a stream, but billing's quota e-mails follow its subjects on core NATS, in its queue group.
  {
    subject: subjects.gateway.quotaWarning,
    publisher: 'gateway',
    followers: [{ service: 'billing', queue: 'billing' }],
  },
  {
    subject: subjects.gateway.quotaExceeded,
    publisher: 'gateway',
    followers: [{ service: 'billing', queue: 'billing' }],
  },
];

type Follower = { service: ServiceName; queue?: string };

/** Each JetStream stream's one publisher: it creates the stream and alone may write to it. */
export const streamOwners: Record<StreamKey, ServiceName> = {
  lists: 'screening',
  screenings: 'screening',
  security: 'gateway',
  adminActions: 'gateway',
  quota: 'gateway',
  bulkJobs: 'gateway',
  bulkJobEvents: 'gateway',
  authEvents: 'auth',
  monitoringEvents: 'monitoring',
};

/**
 * The durable JetStream consumers, by the name each service gives it: the only ones a service may
 * create, read and acknowledge. `filter` is the subject the consumer is created with (none: the
 * whole stream); a consumer cannot be created with another.
 */
export const durableConsumers = {
  auditSecurity: {
    service: 'audit',
    stream: 'security',
    durable: 'audit-security',
    filter: subjects.gateway.securityEvent,
  },
  auditScreenings: { service: 'audit', stream: 'screenings', durable: 'audit-screenings' },
  auditAdminActions: {
    service: 'audit',
    stream: 'adminActions',
    durable: 'audit-admin-actions',
    filter: subjects.gateway.adminAction,
  },
  auditAuthEvents: {
    service: 'audit',
    stream: 'authEvents',
    durable: 'audit-auth-events',
    filter: subjects.auth.failedAuth,
  },
  auditClientChanges: {
    service: 'audit',
    stream: 'authEvents',
    durable: 'audit-client-changes',
    filter: subjects.auth.clientChanged,
  },
  auditMonitoringChanges: {
    service: 'audit',
    stream: 'monitoringEvents',
    durable: 'audit-monitoring-changes',
    filter: subjects.monitoring.clientChanged,
  },
  bulkWorkers: { service: 'gateway', stream: 'bulkJobs', durable: 'bulk-workers', filter: subjects.gateway.bulkChunk },
  monitoringBulkJobs: {
    service: 'monitoring',
    stream: 'bulkJobEvents',
    durable: 'monitoring-bulk-jobs',
    filter: subjects.gateway.bulkJobCompleted,
  },
  monitoringReviewItems: {
    service: 'monitoring',
    stream: 'screenings',
    durable: 'monitoring-review-items',
    filter: subjects.screening.screened,
  },
  monitoringListUpdates: {
    service: 'monitoring',
    stream: 'lists',
    durable: 'monitoring-list-updates',
    filter: subjects.lists.updated,
  },
} as const satisfies Record<string, { service: ServiceName; stream: StreamKey; durable: string; filter?: string }>;

/**
 * Streams a service follows with ephemeral ordered consumers (a fresh, server-named consumer per
 * replica): screening's index and review memory follow its own LISTS and SCREENINGS.
 */
const EPHEMERAL_FOLLOWERS: readonly { service: ServiceName; stream: StreamKey }[] = [
  { service: 'screening', stream: 'lists' },
  { service: 'screening', stream: 'screenings' },
];

/** Where a service's request replies arrive: `<prefix>.<token>`, a prefix no other service may subscribe to. */
export function inboxPrefixOf(service: ServiceName): string {
  return `_INBOX_${service}`;
}

/** One service's permissions, in nats-server's terms (a subscribe entry may be "subject queue"). */
export type BusPermissions = {
  publish: string[];
  subscribe: string[];
  /** May reply to the requests it receives (nats-server's allow_responses: one reply per request). */
  allowResponses: true;
};

const JS_API = '$JS.API';

/** Everything `service` may publish and subscribe to, derived from the tables above. */
export function busPermissionsOf(service: ServiceName): BusPermissions {
  const publish = new Set<string>(busCalls[service]);
  const subscribe = new Set<string>([`${inboxPrefixOf(service)}.>`]);
  for (const subject of requestSubjectsOf(service)) subscribe.add(`${subject} ${service}`);
  for (const event of CORE_EVENTS) {
    if (event.publisher === service) publish.add(event.subject);
    for (const follower of event.followers)
      if (follower.service === service)
        subscribe.add(follower.queue ? `${event.subject} ${follower.queue}` : event.subject);
  }
  for (const [key, owner] of Object.entries(streamOwners) as [StreamKey, ServiceName][]) {
    if (owner !== service) continue;
    const name = streams[key].name;
    // The stream's subjects (a JetStream publish is a request on the subject; its ack comes to the inbox).
    for (const subject of streams[key].subjects) publish.add(subject);
    // ensureStreams at boot: look it up, create it, add subjects a newer version brings.
    for (const op of ['INFO', 'CREATE', 'UPDATE']) publish.add(`${JS_API}.STREAM.${op}.${name}`);
  }
  for (const consumer of Object.values(durableConsumers)) {
    if (consumer.service !== service) continue;
    const stream = streams[consumer.stream].name;
    const durable = consumer.durable;
    publish.add(`${JS_API}.STREAM.INFO.${stream}`);
    publish.add(`${JS_API}.CONSUMER.INFO.${stream}.${durable}`);
    // Create or update: the client names the filter in the subject when there is one (servers ≥ 2.9).
    publish.add(`${JS_API}.CONSUMER.CREATE.${stream}.${durable}`);
    if ('filter' in consumer) publish.add(`${JS_API}.CONSUMER.CREATE.${stream}.${durable}.${consumer.filter}`);
    publish.add(`${JS_API}.CONSUMER.DURABLE.CREATE.${stream}.${durable}`);
    publish.add(`${JS_API}.CONSUMER.MSG.NEXT.${stream}.${durable}`);
    publish.add(`$JS.ACK.${stream}.${durable}.>`);
  }
  for (const follower of EPHEMERAL_FOLLOWERS) {
    if (follower.service !== service) continue;
    const stream = streams[follower.stream].name;
    // Server-named consumers: any name on this stream (the service owns the stream, so this gives it
    // nothing over others' consumers it did not already have through STREAM.UPDATE).
    for (const api of ['CONSUMER.CREATE', 'CONSUMER.INFO', 'CONSUMER.DELETE', 'CONSUMER.MSG.NEXT'])
      publish.add(`${JS_API}.${api}.${stream}.*`);
    publish.add(`${JS_API}.CONSUMER.CREATE.${stream}.*.>`);
  }
  // No `$JS.API.INFO`: the account's usage and limits (how many streams and consumers, how much
  // stored) are nobody's business but an operator's, and the platform's manager skips the check
  // that asks for it (Nats.jetstreamManager, checkAPI: false). Nor `$JS.API.STREAM.NAMES`/`LIST`:
  // a service names the streams it uses, it never lists the others.
  return { publish: [...publish].sort(), subscribe: [...subscribe].sort(), allowResponses: true };
}

/** The whole table: every service's permissions. */
export function busPermissions(): Record<ServiceName, BusPermissions> {
  return Object.fromEntries(SERVICE_NAMES.map((service) => [service, busPermissionsOf(service)])) as Record<
    ServiceName,
    BusPermissions
  >;
}
