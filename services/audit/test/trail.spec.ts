import { jest } from '@jest/globals';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import {
  streams,
  subjects,
  type AdminActionEvent,
  type ClientChangedEvent,
  type ReviewSettingsChangedEvent,
  type ScreenedEvent,
  type SecurityEvent,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { AUDIT_DIR, AuditStack, DATABASE_URL, eventually, runNode } from './harness.js';

jest.setTimeout(180_000);

const YEAR_MS = 365 * 86_400_000;

function securityEvent(overrides: Partial<SecurityEvent> = {}, at = new Date()): SecurityEvent {
  return {
    id: randomUUID(),
    event: 'FAILED_AUTH',
    timestamp: at.toISOString(),
    details: {
      ip: '10.0.0.1',
      endpoint: '/api/v1/screen',
      method: 'POST',
      adminEmail: null,
      clientName: null,
      clientId: null,
      userId: null,
      requestId: null,
      reason: 'invalid_api_key',
    },
    ...overrides,
  };
}

function screened(clientId: string, at: Date, name = 'Jane Doe'): ScreenedEvent {
  const id = randomUUID();
  return {
    eventId: id,
    screeningId: id,
    kind: 'single',
    clientId,
    tier: 'large',
    requestId: null,
    searchedName: name,
    searchedEmail: null,
    matchFound: false,
    status: 'clear',
    score: 0.1234,
    topEntityId: null,
    matchedName: null,
    sourceList: null,
    isAlert: false,
    listVersions: [{ source: 'ofac_sdn', versionId: 3 }],
    createdAt: at.toISOString(),
  };
}

function adminAction(clientId: string | null, at: Date): AdminActionEvent {
  return {
    id: randomUUID(),
    action: clientId ? 'thresholds.changed' : 'lists.refreshed',
    actorId: randomUUID(),
    actorEmail: 'admin@vigil.dev',
    clientId,
    clientName: clientId ? 'Some Bank' : null,
    ip: '10.0.0.2',
    endpoint: '/api/client/clients/x/thresholds',
    requestId: null,
    details: { threshold_config: { HIGH_SCORE: 0.9 } },
    occurredAt: at.toISOString(),
  };
}

describe('the audit trail: durable, idempotent, append-only and tamper-evident', () => {
  const stack = new AuditStack();
  let js: JetStreamClient;
  // `npm run audit:verify`, as an operator runs it, on this test's schema.
  const verify = () =>
    runNode(join(AUDIT_DIR, 'scripts', 'audit-cli.mjs'), { ...stack.auditEnv(), DATABASE_URL }, ['verify']);
  const count = async (table: string, where = 'TRUE', params: unknown[] = []) =>
    Number((await stack.sql('audit', `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params))[0].n);

  beforeAll(async () => {
    await stack.start({ gateway: false });
    const jsm = await jetstreamManager(stack.nc!);
    // As the gateway and screening create them.
    for (const stream of [streams.security, streams.adminActions, streams.screenings]) {
      await jsm.streams.add({ name: stream.name, subjects: [...stream.subjects], duplicate_window: nanos(120_000) });
    }
    // As auth creates it at boot (already there when auth came up first).
    await jsm.streams
      .add({
        name: streams.authEvents.name,
        subjects: [...streams.authEvents.subjects],
        duplicate_window: nanos(120_000),
      })
      .catch(() => undefined);
    js = jetstream(stack.nc!);
    await stack.consumersAttached(['SECURITY', 'ADMIN_ACTIONS', 'SCREENINGS']);
  });
  afterAll(() => stack.stop());

  it('stores a redelivered or re-published event once', async () => {
    const event = securityEvent();
    // Two publications the stream cannot de-duplicate (different message ids): two deliveries.
    await js.publish(subjects.gateway.securityEvent, JSON.stringify(event), { msgID: `${event.id}-a` });
    await js.publish(subjects.gateway.securityEvent, JSON.stringify(event), { msgID: `${event.id}-b` });
    const jsm = await jetstreamManager(stack.nc!);
    await eventually(
      async () => {
        const info = await jsm.consumers.info(streams.security.name, 'audit-security');
        return info.num_pending + info.num_ack_pending;
      },
      (n) => n === 0,
      10_000,
    );
    expect(await count('security_events', 'event_id = $1', [event.id])).toBe(1);
  });

  it('loses nothing when the audit service is killed -9 while events keep flowing', async () => {
    const total = 1_500;
    const ids: string[] = [];
    const publishing = (async () => {
      for (let i = 0; i < total; i++) {
        const event = securityEvent({ event: i % 2 ? 'CLIENT_ACCESS' : 'ADMIN_ACCESS' });
        ids.push(event.id);
        await js.publish(subjects.gateway.securityEvent, JSON.stringify(event), { msgID: event.id });
        if (i % 100 === 99) await new Promise((r) => setTimeout(r, 150));
      }
    })();
    await eventually(
      () => count('security_events', 'event_id = ANY($1::uuid[])', [ids]),
      (n) => n > 100,
      20_000,
    );
    await stack.killAudit();
    const storedAtKill = await count('security_events', 'event_id = ANY($1::uuid[])', [ids]);
    await new Promise((r) => setTimeout(r, 500));
    stack.startAudit();
    await publishing;
    expect(storedAtKill).toBeLessThan(total);
    const { value: stored } = await eventually(
      () => count('security_events', 'event_id = ANY($1::uuid[])', [ids]),
      (n) => n >= total,
      60_000,
    );
    expect(stored).toBe(total);
    expect(new Set(ids).size).toBe(total);
    // And the chain the two processes wrote holds together.
    const verified = await verify();
    expect(verified.stdout).toMatch(/audit:verify: OK/);
    expect(verified.code).toBe(0);
  });

  it('refuses UPDATE and DELETE through the service’s role, and UPDATE, DELETE and TRUNCATE by anyone through the trigger', async () => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`SET search_path = "${stack.schema('audit')}"`);
      await client.query('SET ROLE vigil_audit_append');
      // What the service may do: read and append.
      expect((await client.query('SELECT count(*)::int AS n FROM security_events')).rows[0].n).toBeGreaterThan(0);
      for (const statement of [
        `UPDATE security_events SET endpoint = '/x'`,
        `DELETE FROM security_events`,
        `UPDATE chain_heads SET seq = 0`,
        `TRUNCATE security_events`,
        `DELETE FROM screening_events`,
        `UPDATE admin_actions SET actor_id = 'someone else'`,
      ]) {
        await expect(client.query(statement)).rejects.toThrow(/permission denied/);
      }
      await client.query('RESET ROLE');
      // Even the owner goes through the trigger.
      await expect(client.query(`UPDATE security_events SET endpoint = '/x'`)).rejects.toThrow(
        /UPDATE refused: the audit trail is append-only/,
      );
      await expect(client.query(`DELETE FROM security_events`)).rejects.toThrow(/DELETE refused/);
      await expect(client.query(`TRUNCATE security_events`)).rejects.toThrow(/TRUNCATE refused/);
      // The session setting alone does not open the retention path.
      await client.query(`SET vigil.audit_retention = 'on'`);
      await expect(client.query(`DELETE FROM security_events`)).rejects.toThrow(/DELETE refused/);
    } finally {
      await client.end();
    }
  });

  it('names the row a superuser edited behind the trigger’s back', async () => {
    const [row] = await stack.sql(
      'audit',
      `SELECT seq, event_id, endpoint FROM security_events ORDER BY seq LIMIT 1 OFFSET 700`,
    );
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`SET search_path = "${stack.schema('audit')}"`);
      // A superuser can switch triggers off; the chain still tells.
      await client.query(`SET session_replication_role = replica`);
      await client.query(`UPDATE security_events SET endpoint = '/tampered' WHERE seq = $1`, [row.seq]);
      const caught = await verify();
      expect(caught.code).toBe(1);
      expect(caught.stderr).toContain(`security_events row seq=${row.seq} (event ${row.event_id})`);
      expect(caught.stderr).toMatch(/hash does not match the row’s contents/);
      // Put back as it was: the same contents hash the same.
      await client.query(`UPDATE security_events SET endpoint = $2 WHERE seq = $1`, [row.seq, row.endpoint]);
      expect((await verify()).code).toBe(0);
      // A row removed from the middle of a chain is named by the gap it leaves.
      const [victim] = await stack.sql(
        'audit',
        `SELECT seq, chain_seq FROM security_events ORDER BY seq LIMIT 1 OFFSET 10`,
      );
      // Saved as jsonb: a JavaScript Date would drop the timestamps' microseconds.
      const saved = (
        await client.query(`SELECT to_jsonb(t) AS row FROM security_events t WHERE seq = $1`, [victim.seq])
      ).rows[0].row;
      await client.query(`DELETE FROM security_events WHERE seq = $1`, [victim.seq]);
      const gap = await verify();
      expect(gap.code).toBe(1);
      expect(gap.stderr).toContain(`rows ${victim.chain_seq}..${victim.chain_seq} of the chain are missing`);
      await client.query(
        `INSERT INTO security_events SELECT * FROM jsonb_populate_record(NULL::security_events, $1::jsonb)`,
        [saved],
      );
      expect((await verify()).code).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('removes expired segments under the retention setting, and the chains still verify', async () => {
    const clientId = randomUUID();
    const old = (years: number) => new Date(Date.now() - years * YEAR_MS);
    // The client's chain: two 8-year-old screenings and an 8-year-old admin action, then a recent screening.
    const publish = (subject: string, event: { eventId?: string; id?: string }) =>
      js.publish(subject, JSON.stringify(event), { msgID: event.eventId ?? event.id! });
    for (const e of [screened(clientId, old(8), 'Old One'), screened(clientId, old(8), 'Old Two')]) {
      await publish(subjects.screening.screened, e);
      await eventually(
        () => count('screening_events', 'event_id = $1', [e.eventId]),
        (n) => n === 1,
        10_000,
      );
    }
    const oldAction = adminAction(clientId, old(8));
    await publish(subjects.gateway.adminAction, oldAction);
    await eventually(
      () => count('admin_actions', 'event_id = $1', [oldAction.id]),
      (n) => n === 1,
      10_000,
    );
    const recent = screened(clientId, new Date(), 'Recent');
    await publish(subjects.screening.screened, recent);
    // The platform chain: 3-year-old security events between recent ones, and a 3-year-old
    // platform admin action (kept: 7 years) that splits them into two segments.
    const oldSecurity = [securityEvent({}, old(3)), securityEvent({}, old(3))];
    const splitter = adminAction(null, old(3));
    const laterSecurity = securityEvent({}, old(3));
    for (const e of oldSecurity) await publish(subjects.gateway.securityEvent, e);
    await eventually(
      () => count('security_events', 'event_id = ANY($1::uuid[])', [oldSecurity.map((e) => e.id)]),
      (n) => n === 2,
      10_000,
    );
    await publish(subjects.gateway.adminAction, splitter);
    await eventually(
      () => count('admin_actions', 'event_id = $1', [splitter.id]),
      (n) => n === 1,
      10_000,
    );
    await publish(subjects.gateway.securityEvent, laterSecurity);
    const fresh = securityEvent();
    await publish(subjects.gateway.securityEvent, fresh);
    await eventually(
      () => count('security_events', 'event_id = ANY($1::uuid[])', [[laterSecurity.id, fresh.id]]),
      (n) => n === 2,
      10_000,
    );
    await eventually(
      () => count('screening_events', 'event_id = $1', [recent.eventId]),
      (n) => n === 1,
      10_000,
    );

    const securityBefore = await count('security_events');
    const retention = await runNode(join(AUDIT_DIR, 'dist', 'src', 'retention-run.js'), {
      ...stack.auditEnv(),
      DATABASE_URL,
    });
    expect(retention.stderr).toBe('');
    // 3 client-chain rows (one segment) and 3 security events (two segments).
    expect(retention.stdout).toContain('removed 6 rows in 3 segments');
    expect(await count('screening_events', 'client_id = $1', [clientId])).toBe(1);
    expect(await count('admin_actions', 'event_id = $1', [oldAction.id])).toBe(0);
    expect(await count('admin_actions', 'event_id = $1', [splitter.id])).toBe(1);
    expect(await count('security_events')).toBe(securityBefore - 3);
    const checkpoints = await stack.sql(
      'audit',
      `SELECT target_chain, from_seq::int, to_seq::int, rows_removed, removed FROM retention_checkpoints ORDER BY seq`,
    );
    expect(checkpoints).toEqual(
      expect.arrayContaining([
        {
          target_chain: `client:${clientId}`,
          from_seq: 1,
          to_seq: 3,
          rows_removed: 3,
          removed: { screening_events: 2, admin_actions: 1 },
        },
      ]),
    );
    expect(checkpoints.filter((c) => c.target_chain === 'platform').map((c) => c.rows_removed)).toEqual([2, 1]);
    const verified = await verify();
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    // Run again: nothing more has expired.
    const again = await runNode(join(AUDIT_DIR, 'dist', 'src', 'retention-run.js'), {
      ...stack.auditEnv(),
      DATABASE_URL,
    });
    expect(again.stdout).toContain('removed 0 rows in 0 segments');
    // A checkpoint cannot be deleted, even by the retention role, and editing one is caught.
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`SET search_path = "${stack.schema('audit')}"`);
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE vigil_audit_retention');
      await client.query(`SELECT set_config('vigil.audit_retention', 'on', true)`);
      await expect(client.query('DELETE FROM retention_checkpoints')).rejects.toThrow(/refused|permission denied/);
      await client.query('ROLLBACK');
      await client.query(`SET session_replication_role = replica`);
      await client.query(`UPDATE retention_checkpoints SET to_seq = to_seq + 1 WHERE target_chain = $1`, [
        `client:${clientId}`,
      ]);
      const caught = await verify();
      expect(caught.code).toBe(1);
      expect(caught.stderr).toMatch(/retention_checkpoints row seq=\d+, chain "retention"|chain "client:/);
    } finally {
      await client.end();
    }
  });

  it('stores a four-eyes switch on the client’s chain, naming who switched it', async () => {
    const clientId = `bank-${randomUUID()}`;
    const switched: ReviewSettingsChangedEvent = {
      eventId: randomUUID(),
      clientId,
      fourEyes: false,
      previousFourEyes: true,
      actorId: 'user-supervisor',
      actorEmail: 'supervisor@bank.example',
      actorRole: 'supervisor',
      occurredAt: new Date().toISOString(),
    };
    await js.publish(subjects.screening.reviewSettingsChanged, JSON.stringify(switched), { msgID: switched.eventId });
    const { value: rows } = await eventually(
      () =>
        stack.sql(
          'audit',
          `SELECT chain_id, action, actor_id, actor_email, details FROM admin_actions WHERE event_id = $1`,
          [switched.eventId],
        ),
      (r) => r.length === 1,
      10_000,
    );
    expect(rows[0]).toEqual({
      chain_id: `client:${clientId}`,
      action: 'four_eyes.disabled',
      actor_id: 'user-supervisor',
      actor_email: 'supervisor@bank.example',
      details: { four_eyes: false, previous_four_eyes: true, actor_role: 'supervisor' },
    });
  });

  it("stores a member's key rotation on the client's chain through audit's AUTH_EVENTS consumer, prefix only", async () => {
    const clientId = `bank-${randomUUID()}`;
    const rotated: ClientChangedEvent = {
      id: randomUUID(),
      change: 'key.rotated',
      clientId,
      actorId: 'user-owner',
      actorEmail: 'owner@bank.example',
      details: { key_prefix: 'ab12cd34' },
      occurredAt: new Date().toISOString(),
    };
    await js.publish(subjects.auth.clientChanged, JSON.stringify(rotated), { msgID: rotated.id });
    const { value: rows } = await eventually(
      () =>
        stack.sql('audit', `SELECT chain_id, action, actor_id, details FROM admin_actions WHERE event_id = $1`, [
          rotated.id,
        ]),
      (r) => r.length === 1,
      10_000,
    );
    expect(rows[0]).toEqual({
      chain_id: `client:${clientId}`,
      action: 'key.rotated',
      actor_id: 'user-owner',
      details: { key_prefix: 'ab12cd34' },
    });
  });
});
