import { subjects } from '@vigil/proto';
import { rowOf } from './audit-events.js';

const security = {
  id: '6c1f7f0e-2f4e-4a53-9d55-0b8f5b0c8b11',
  event: 'FAILED_AUTH',
  timestamp: '2026-11-24T08:00:00.123Z',
  details: {
    ip: '10.0.0.1',
    endpoint: '/api/v1/screen',
    method: 'POST',
    adminEmail: null,
    clientName: 'Bank',
    clientId: 'c-1',
    userId: null,
    requestId: 'r-1',
    reason: 'invalid_api_key',
  },
};

describe('rowOf', () => {
  it('puts security events on the platform chain, with the key’s client as actor when no user signed in', () => {
    const row = rowOf(subjects.gateway.securityEvent, security);
    expect(row).toMatchObject({ table: 'security_events', chainId: 'platform', eventId: security.id });
    expect(row.columns).toMatchObject({
      event_type: 'FAILED_AUTH',
      actor_id: 'client:c-1',
      endpoint: '/api/v1/screen',
    });
    const signedIn = rowOf(subjects.gateway.securityEvent, {
      ...security,
      details: { ...security.details, userId: 'u-9' },
    });
    expect(signedIn.columns).toMatchObject({ actor_id: 'u-9' });
  });

  it('puts screenings, review decisions and admin actions on a client on that client’s chain', () => {
    const review = rowOf(subjects.screening.reviewDecided, {
      eventId: 'e-1',
      reviewId: 'r-1',
      screeningLogId: 's-1',
      clientId: 'c-2',
      decision: 'approved',
      actorId: 'u-1',
      decidedAt: '2026-11-24T08:00:00Z',
    });
    expect(review).toMatchObject({
      table: 'review_decisions',
      chainId: 'client:c-2',
      columns: { actor_id: 'u-1', occurred_at: '2026-11-24T08:00:00.000Z' },
    });
    const action = {
      id: '0b7c2e9a-8f57-4c43-9a0e-1d2b3c4d5e6f',
      action: 'lists.refreshed',
      actorId: 'u-admin',
      actorEmail: 'admin@vigil.dev',
      clientId: null,
      clientName: null,
      ip: null,
      endpoint: '/api/client/admin/lists/refresh',
      requestId: null,
      details: {},
      occurredAt: '2026-11-24T08:00:00Z',
    };
    expect(rowOf(subjects.gateway.adminAction, action).chainId).toBe('platform');
    expect(rowOf(subjects.gateway.adminAction, { ...action, action: 'key.revoked', clientId: 'c-3' }).chainId).toBe(
      'client:c-3',
    );
  });

  it('records the four-eyes steps and the false-positive memory on the review decisions of the client’s chain', () => {
    const step = {
      eventId: 'e-2',
      reviewId: 'r-2',
      screeningLogId: 's-2',
      clientId: 'c-4',
      decision: 'approved',
      actorId: 'u-2',
      actorEmail: 'analyst@bank.example',
      reasonCode: 'different_person_dob',
      decidedAt: '2026-11-24T08:00:00Z',
    };
    const decisionOf = (payload: object) => rowOf(subjects.screening.reviewDecided, payload).columns;
    // An event published before steps existed (no `step`) is a final decision.
    expect(decisionOf(step)).toMatchObject({ decision: 'approved' });
    expect(decisionOf({ ...step, step: 'proposed' })).toMatchObject({ decision: 'proposed:approved' });
    expect(decisionOf({ ...step, step: 'confirmed' })).toMatchObject({ decision: 'confirmed:approved' });
    const memory = rowOf(subjects.screening.memoryChanged, {
      eventId: 'e-3',
      memoryId: 'm-1',
      clientId: 'c-4',
      change: 'revoked',
      reviewId: 'r-2',
      screeningLogId: 's-2',
      entityId: 'ofac-sdn:101',
      searchedName: 'Viktor Bout',
      actorId: 'u-3',
      actorEmail: null,
      occurredAt: '2026-11-24T09:00:00Z',
    });
    expect(memory).toMatchObject({
      table: 'review_decisions',
      chainId: 'client:c-4',
      columns: { review_id: 'r-2', decision: 'memory.revoked', actor_id: 'u-3' },
    });
  });

  it('puts a four-eyes switch on the client’s chain, naming who switched it and from what to what', () => {
    const switched = rowOf(subjects.screening.reviewSettingsChanged, {
      eventId: '0b6a4c1e-6a53-4c3e-9d0e-3f4b2a1c9d77',
      clientId: 'c-5',
      fourEyes: false,
      previousFourEyes: true,
      actorId: 'u-4',
      actorEmail: 'supervisor@bank.example',
      actorRole: 'supervisor',
      occurredAt: '2026-11-24T10:00:00Z',
    });
    expect(switched).toEqual({
      table: 'admin_actions',
      eventId: '0b6a4c1e-6a53-4c3e-9d0e-3f4b2a1c9d77',
      chainId: 'client:c-5',
      columns: expect.objectContaining({
        action: 'four_eyes.disabled',
        actor_id: 'u-4',
        actor_email: 'supervisor@bank.example',
        client_id: 'c-5',
        details: { four_eyes: false, previous_four_eyes: true, actor_role: 'supervisor' },
        occurred_at: '2026-11-24T10:00:00.000Z',
      }),
    });
  });

  it('refuses what its contract does not allow, naming the field', () => {
    expect(() => rowOf(subjects.gateway.securityEvent, { ...security, event: 'LOGIN' })).toThrow(/event/);
    expect(() => rowOf(subjects.gateway.securityEvent, { ...security, timestamp: 'yesterday' })).toThrow(
      /not an instant/,
    );
    expect(() => rowOf('something.else', {})).toThrow(/no audit record/);
  });

  it("puts a member's own changes (key, team, notifications) on the client's chain, naming the member", () => {
    const base = {
      clientId: 'c-7',
      actorId: 'u-owner',
      actorEmail: 'owner@bank.example',
      occurredAt: '2026-11-28T10:00:00Z',
    };
    const rotated = rowOf(subjects.auth.clientChanged, {
      ...base,
      id: '0b9c6a1e-5f0e-4d3b-8a53-2f1d0c9e7a11',
      change: 'key.rotated',
      details: { key_prefix: 'ab12cd34' },
    });
    expect(rotated).toMatchObject({ table: 'admin_actions', chainId: 'client:c-7' });
    expect(rotated.columns).toMatchObject({
      action: 'key.rotated',
      actor_id: 'u-owner',
      actor_email: 'owner@bank.example',
      client_id: 'c-7',
      endpoint: '/api/settings/regenerate-api-key',
      details: { key_prefix: 'ab12cd34' },
    });
    const removed = rowOf(subjects.auth.clientChanged, {
      ...base,
      id: '1c8d7b2f-6a1f-4e4c-9b64-3e2e1dad8b22',
      change: 'member.removed',
      details: { member_id: 'u-2', role: 'analyst' },
    });
    expect(removed.columns).toMatchObject({ action: 'member.removed', actor_id: 'u-owner', client_id: 'c-7' });
    expect(() =>
      rowOf(subjects.auth.clientChanged, { ...base, id: 'not-a-uuid', change: 'key.rotated', details: {} }),
    ).toThrow();
  });

  it("puts a monitoring settings or webhook change on the client's chain, naming the member or the key's prefix", () => {
    const base = { clientId: 'c-9', occurredAt: '2026-11-28T11:00:00Z' };
    const byMember = rowOf(subjects.monitoring.clientChanged, {
      ...base,
      id: '2d9e8c3a-7b2a-4f5d-8c75-4f3f2ebe9c33',
      change: 'settings.changed',
      actor: { kind: 'user', userId: 'u-sup', email: 'sup@bank.example' },
      details: { changed: { alert_on_review: false } },
    });
    expect(byMember).toMatchObject({ table: 'admin_actions', chainId: 'client:c-9' });
    expect(byMember.columns).toMatchObject({
      action: 'monitoring.settings.changed',
      actor_id: 'u-sup',
      actor_email: 'sup@bank.example',
      endpoint: 'PUT /api/monitoring/settings',
      details: { changed: { alert_on_review: false }, actor_kind: 'user' },
    });
    const byKey = rowOf(subjects.monitoring.clientChanged, {
      ...base,
      id: '3eaf9d4b-8c3b-4a6e-9d86-5a4a3fcfad44',
      change: 'webhook.deleted',
      actor: { kind: 'api_key', keyPrefix: 'vgl_ab12' },
      details: { webhook_id: 'w-1' },
    });
    expect(byKey.columns).toMatchObject({
      action: 'monitoring.webhook.deleted',
      actor_id: 'api_key:vgl_ab12',
      actor_email: null,
      details: { webhook_id: 'w-1', actor_kind: 'api_key', key_prefix: 'vgl_ab12' },
    });
    const bySystem = rowOf(subjects.monitoring.clientChanged, {
      ...base,
      id: '5ac1bf6d-ae5d-4c80-9fa8-7c6c5becaf66',
      change: 'webhook.disabled',
      actor: { kind: 'system' },
      details: { webhook_id: 'w-2' },
    });
    expect(bySystem.columns).toMatchObject({
      action: 'monitoring.webhook.disabled',
      actor_id: 'system',
      details: { webhook_id: 'w-2', actor_kind: 'system' },
    });
    // No actor, no record: a change nobody made cannot be stored.
    expect(() =>
      rowOf(subjects.monitoring.clientChanged, {
        ...base,
        id: '4fb0ae5c-9d4c-4b7f-8e97-6b5b4adbbe55',
        change: 'webhook.deleted',
        details: {},
      }),
    ).toThrow();
  });

  it('names who ran a screening in its row: the member, the key by its prefix, the bulk job or monitoring', () => {
    const screened = {
      eventId: 's-9',
      screeningId: 's-9',
      kind: 'single',
      clientId: 'c-9',
      tier: 'large',
      requestId: null,
      searchedName: 'Jane Doe',
      searchedEmail: null,
      matchFound: false,
      status: 'clear',
      score: 0,
      topEntityId: null,
      matchedName: null,
      sourceList: null,
      isAlert: false,
      listVersions: [],
      createdAt: '2026-11-28T11:00:00Z',
    };
    const actorOf = (actor?: object | null) =>
      rowOf(subjects.screening.screened, { ...screened, ...(actor === undefined ? {} : { actor }) }).columns;
    expect(actorOf({ kind: 'user', userId: 'u-1', email: 'analyst@bank.example' })).toMatchObject({ actor_id: 'u-1' });
    const byKey = actorOf({ kind: 'api_key', keyId: 'k-1', keyPrefix: 'vgl_ab12' });
    expect(byKey).toMatchObject({ actor_id: 'api_key:vgl_ab12' });
    expect(actorOf({ kind: 'bulk_job', jobId: 'j-1' })).toMatchObject({ actor_id: 'bulk_job:j-1' });
    expect(actorOf({ kind: 'bulk_job', jobId: 'j-1', submittedBy: 'analyst@bank.example' })).toMatchObject({
      actor_id: 'bulk_job:j-1 by analyst@bank.example',
    });
    expect(actorOf({ kind: 'monitoring' })).toMatchObject({ actor_id: 'monitoring' });
    // Events from before screenings named their actor keep the client, as their rows always said.
    expect(actorOf(undefined)).toMatchObject({ actor_id: 'client:c-9' });
    expect(actorOf(null)).toMatchObject({ actor_id: 'client:c-9' });
    // The row holds the columns it always had: a new one would change every stored row's hash.
    expect(Object.keys(byKey).sort()).toEqual(Object.keys(actorOf(undefined)).sort());
  });
});
