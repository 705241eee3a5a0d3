import type {
  AdminActionEvent,
  ClientChange,
  ClientChangedEvent,
  FailedAuthEvent,
  MemoryChangedEvent,
  MonitoringChange,
  MonitoringChangedEvent,
  ReviewDecidedEvent,
  ReviewSettingsChangedEvent,
  ScreenedEvent,
  SecurityEvent,
} from '@vigil/proto';

// What each event becomes in the audit tables. Pure: the chain columns (chain_seq, prev_hash,
// hash) are assigned by the database when the row is inserted.

export const PLATFORM_CHAIN = 'platform';
export const RETENTION_CHAIN = 'retention';
export const clientChain = (clientId: string) => `client:${clientId}`;

type Row<T extends string, C> = { table: T; eventId: string; chainId: string; columns: C };

export type SecurityEventRow = Row<
  'security_events',
  {
    event_id: string;
    event_type: SecurityEvent['event'];
    occurred_at: string;
    ip: string | null;
    endpoint: string;
    method: string | null;
    admin_email: string | null;
    client_name: string | null;
    client_id: string | null;
    actor_id: string | null;
    request_id: string | null;
    reason: string | null;
  }
>;
export type ScreeningEventRow = Row<
  'screening_events',
  {
    event_id: string;
    screening_id: string;
    kind: string;
    client_id: string;
    tier: string;
    actor_id: string;
    request_id: string | null;
    searched_name: string | null;
    searched_email: string | null;
    match_found: boolean;
    status: string;
    score: number;
    top_entity_id: string | null;
    matched_name: string | null;
    source_list: string | null;
    is_alert: boolean;
    list_versions: ScreenedEvent['listVersions'];
    occurred_at: string;
  }
>;
export type ReviewDecisionRow = Row<
  'review_decisions',
  {
    event_id: string;
    review_id: string;
    screening_log_id: string;
    client_id: string;
    decision: string;
    actor_id: string | null;
    occurred_at: string;
  }
>;
export type AdminActionRow = Row<
  'admin_actions',
  {
    event_id: string;
    action: string;
    actor_id: string;
    actor_email: string | null;
    client_id: string | null;
    client_name: string | null;
    ip: string | null;
    endpoint: string;
    request_id: string | null;
    details: Record<string, unknown>;
    occurred_at: string;
  }
>;

export type AuditRow = SecurityEventRow | ScreeningEventRow | ReviewDecisionRow | AdminActionRow;
export type AuditTable = AuditRow['table'];

/** An instant as Postgres will store it; a bad one is refused here rather than by the INSERT. */
function instant(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`not an instant: ${value}`);
  return new Date(ms).toISOString();
}

/** Security events are the platform's access log: one chain, with its own retention. */
export function securityEventRow(e: SecurityEvent): SecurityEventRow {
  const d = e.details;
  return {
    table: 'security_events',
    eventId: e.id,
    chainId: PLATFORM_CHAIN,
    columns: {
      event_id: e.id,
      event_type: e.event,
      occurred_at: instant(e.timestamp),
      ip: d.ip,
      endpoint: d.endpoint,
      method: d.method,
      admin_email: d.adminEmail,
      client_name: d.clientName,
      client_id: d.clientId,
      // Who acted: the signed-in user, else the client whose key was used.
      actor_id: d.userId ?? (d.clientId ? clientChain(d.clientId) : null),
      request_id: d.requestId,
      reason: d.reason,
    },
  };
}

/**
 * A failed sign-in reported by auth (wrong password, locked out, wrong MFA code): a FAILED_AUTH
 * row of the platform chain, beside the gateway's own failed credentials. The endpoint is the
 * route under /auth/v1/ without its query; the actor is the account when the email named one.
 * The typed email itself is not kept: it may be a password typed in the wrong field.
 */
export function failedSignInRow(e: FailedAuthEvent): SecurityEventRow {
  return {
    table: 'security_events',
    eventId: e.id,
    chainId: PLATFORM_CHAIN,
    columns: {
      event_id: e.id,
      event_type: 'FAILED_AUTH',
      occurred_at: instant(e.occurred_at),
      ip: e.ip,
      endpoint: `/auth/v1/${e.endpoint.split('?')[0]!}`,
      method: 'POST',
      admin_email: null,
      client_name: null,
      client_id: null,
      actor_id: e.user_id,
      request_id: null,
      reason: e.reason,
    },
  };
}

export function screeningEventRow(e: ScreenedEvent): ScreeningEventRow {
  return {
    table: 'screening_events',
    eventId: e.eventId,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.eventId,
      screening_id: e.screeningId,
      kind: e.kind,
      client_id: e.clientId,
      tier: e.tier,
      actor_id: screeningActorId(e),
      request_id: e.requestId,
      searched_name: e.searchedName,
      searched_email: e.searchedEmail,
      match_found: e.matchFound,
      status: e.status,
      score: e.score,
      top_entity_id: e.topEntityId,
      matched_name: e.matchedName,
      source_list: e.sourceList,
      is_alert: e.isAlert,
      list_versions: e.listVersions,
      occurred_at: instant(e.createdAt),
    },
  };
}

/**
 * Who ran a screening, in the actor column's terms (the same as a monitoring change's): the member's
 * user id, `api_key:<prefix>` (never the key nor its hash), `bulk_job:<id>` (` by <submitter>` when the
 * gateway named who submitted the job), `monitoring`; an event
 * from before screenings named their actor keeps the client, as those rows always said. The
 * column is not new, so no stored row's hash changes.
 */
function screeningActorId(e: ScreenedEvent): string {
  switch (e.actor?.kind) {
    case undefined:
      return clientChain(e.clientId);
    case 'user':
      return e.actor.userId;
    case 'api_key':
      return `api_key:${e.actor.keyPrefix}`;
    case 'bulk_job':
      return e.actor.submittedBy ? `bulk_job:${e.actor.jobId} by ${e.actor.submittedBy}` : `bulk_job:${e.actor.jobId}`;
    case 'monitoring':
      return 'monitoring';
  }
}

/**
 * A step of a review's decision. A final decision reads `approved` or `blocked` as before; the
 * four-eyes steps say which (`proposed:approved`, `confirmed:blocked`, `returned:approved`).
 * The table's columns are unchanged: a new column would change the canonical text, and so the
 * hash, of every row already chained. The reason and note stay with the review in screening.
 */
export function reviewDecisionRow(e: ReviewDecidedEvent): ReviewDecisionRow {
  return {
    table: 'review_decisions',
    eventId: e.eventId,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.eventId,
      review_id: e.reviewId,
      screening_log_id: e.screeningLogId,
      client_id: e.clientId,
      decision: e.step === 'decided' ? e.decision : `${e.step}:${e.decision}`,
      actor_id: e.actorId,
      occurred_at: instant(e.decidedAt),
    },
  };
}

/** A remembered false positive created (by a final approval) or revoked: `memory.created` / `memory.revoked`. */
export function memoryChangeRow(e: MemoryChangedEvent): ReviewDecisionRow {
  return {
    table: 'review_decisions',
    eventId: e.eventId,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.eventId,
      review_id: e.reviewId,
      screening_log_id: e.screeningLogId,
      client_id: e.clientId,
      decision: `memory.${e.change}`,
      actor_id: e.actorId,
      occurred_at: instant(e.occurredAt),
    },
  };
}

export function adminActionRow(e: AdminActionEvent): AdminActionRow {
  return {
    table: 'admin_actions',
    eventId: e.id,
    chainId: e.clientId ? clientChain(e.clientId) : PLATFORM_CHAIN,
    columns: {
      event_id: e.id,
      action: e.action,
      actor_id: e.actorId,
      actor_email: e.actorEmail,
      client_id: e.clientId,
      client_name: e.clientName,
      ip: e.ip,
      endpoint: e.endpoint,
      request_id: e.requestId,
      details: e.details,
      occurred_at: instant(e.occurredAt),
    },
  };
}

/**
 * A supervisor or owner set the client's four-eyes setting: `four_eyes.enabled` / `four_eyes.disabled`
 * on the client's chain, beside the decisions it governs. An admin_actions row, the table for a
 * change of a client's configuration by a named actor (its columns unchanged, so no hash changes);
 * the endpoint is the one route that makes the change.
 */
export function reviewSettingsChangeRow(e: ReviewSettingsChangedEvent): AdminActionRow {
  return {
    table: 'admin_actions',
    eventId: e.eventId,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.eventId,
      action: e.fourEyes ? 'four_eyes.enabled' : 'four_eyes.disabled',
      actor_id: e.actorId,
      actor_email: e.actorEmail,
      client_id: e.clientId,
      client_name: null,
      ip: null,
      endpoint: '/api/sanctions/review-settings',
      request_id: null,
      details: { four_eyes: e.fourEyes, previous_four_eyes: e.previousFourEyes, actor_role: e.actorRole },
      occurred_at: instant(e.occurredAt),
    },
  };
}

/** The route each client-side change is made through, for the record's endpoint column. */
const CLIENT_CHANGE_ENDPOINTS: Readonly<Record<ClientChange, string>> = {
  'key.rotated': '/api/settings/regenerate-api-key',
  'member.added': '/auth/v1/team-invitations/accept',
  'member.role_changed': 'PATCH /api/team/members/:userId',
  'member.removed': 'DELETE /api/team/members/:userId',
  'notifications.changed': '/api/settings/notification-settings',
};

/**
 * A change a client's own member made (key rotation, team, notifications), on that client's
 * chain beside the administrators' actions on it, naming the member (issue #33: these were
 * outside the trail). Stored as an admin_actions row, as four-eyes switches are: no new column,
 * so the hashes of rows already stored are unchanged.
 */
export function clientChangeRow(e: ClientChangedEvent): AdminActionRow {
  return {
    table: 'admin_actions',
    eventId: e.id,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.id,
      action: e.change,
      actor_id: e.actorId,
      actor_email: e.actorEmail,
      client_id: e.clientId,
      client_name: null,
      ip: null,
      endpoint: CLIENT_CHANGE_ENDPOINTS[e.change],
      request_id: null,
      details: e.details,
      occurred_at: instant(e.occurredAt),
    },
  };
}

/** The route each monitoring change is made through, for the record's endpoint column. */
const MONITORING_CHANGE_ENDPOINTS: Readonly<Record<MonitoringChange, string>> = {
  'settings.changed': 'PUT /api/monitoring/settings',
  'webhook.registered': 'POST /api/monitoring/webhooks',
  'webhook.deleted': 'DELETE /api/monitoring/webhooks/:id',
  'webhook.secret_rotated': 'POST /api/monitoring/webhooks/:id/rotate-secret',
  // No route: monitoring's delivery stopped the endpoint when it answered 410 Gone.
  'webhook.disabled': 'webhook delivery',
};

/**
 * A change to a client's monitoring settings or webhooks, on the client's chain (issue #33),
 * stored as an admin_actions row like the other client-side changes. The actor column names the
 * member (user id, e-mail beside it) or, for a bank's server holding the key alone, the key as
 * `api_key:<prefix>` (the prefix repeated in details): the raw key never reaches the event. A
 * webhook monitoring disabled itself (410 Gone) names `system`.
 */
export function monitoringChangeRow(e: MonitoringChangedEvent): AdminActionRow {
  const actor = monitoringActorColumns(e.actor);
  return {
    table: 'admin_actions',
    eventId: e.id,
    chainId: clientChain(e.clientId),
    columns: {
      event_id: e.id,
      action: `monitoring.${e.change}`,
      actor_id: actor.actor_id,
      actor_email: actor.actor_email,
      client_id: e.clientId,
      client_name: null,
      ip: null,
      endpoint: MONITORING_CHANGE_ENDPOINTS[e.change],
      request_id: null,
      details: { ...e.details, ...actor.details },
      occurred_at: instant(e.occurredAt),
    },
  };
}

function monitoringActorColumns(actor: MonitoringChangedEvent['actor']) {
  switch (actor.kind) {
    case 'user':
      return { actor_id: actor.userId, actor_email: actor.email, details: { actor_kind: 'user' } };
    case 'api_key':
      return {
        actor_id: `api_key:${actor.keyPrefix}`,
        actor_email: null,
        details: { actor_kind: 'api_key', key_prefix: actor.keyPrefix },
      };
    case 'system':
      return { actor_id: 'system', actor_email: null, details: { actor_kind: 'system' } };
  }
}
