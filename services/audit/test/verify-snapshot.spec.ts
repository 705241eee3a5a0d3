import { jest } from '@jest/globals';
import { createDatabase, type Database, type Queryable } from '@vigil/platform';
import { TestStack } from '@vigil/platform/testing';
import type { AdminActionEvent, SecurityEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { adminActionRow, securityEventRow } from '../src/trail/audit-records.js';
import { AuditTrailRepository } from '../src/trail/audit-trail.repository.js';
import { verifyTrail } from '../src/trail/chain-verifier.js';
import { DATABASE_URL, SERVICES_DIR } from './harness.js';

jest.setTimeout(120_000);

function signIn(): SecurityEvent {
  return {
    id: randomUUID(),
    event: 'ADMIN_ACCESS',
    timestamp: new Date().toISOString(),
    details: {
      ip: '10.0.0.1',
      endpoint: '/api/admin/clients',
      method: 'GET',
      adminEmail: 'admin@vigil.dev',
      clientName: null,
      clientId: null,
      userId: null,
      requestId: null,
      reason: null,
    },
  };
}

function thresholdsChanged(clientId: string): AdminActionEvent {
  return {
    id: randomUUID(),
    action: 'thresholds.changed',
    actorId: randomUUID(),
    actorEmail: 'admin@vigil.dev',
    clientId,
    clientName: 'Some Bank',
    ip: '10.0.0.2',
    endpoint: `/api/client/clients/${clientId}/thresholds`,
    requestId: null,
    details: { threshold_config: { HIGH_SCORE: 0.9 } },
    occurredAt: new Date().toISOString(),
  };
}

/**
 * `db` as the verifier sees it, except that right after the verifier has read the chains' heads,
 * `write` runs and commits on another connection: events arriving while `audit:verify` walks.
 */
function arrivingAfterHeads(db: Database, write: () => Promise<unknown>): Database {
  let written = false;
  const interleaved = (connection: Queryable): Queryable => ({
    ...connection,
    query: async (text, params, name) => {
      const rows = await connection.query(text, params, name);
      if (!written && /FROM chain_heads/.test(text)) {
        written = true;
        await write();
      }
      return rows as never;
    },
  });
  return Object.assign(Object.create(db) as Database, {
    session: <T>(work: (c: Queryable) => Promise<T>) => db.session((c) => work(interleaved(c))),
    transaction: <T>(work: (c: Queryable) => Promise<T>, isolation?: Parameters<Database['transaction']>[1]) =>
      db.transaction((c) => work(interleaved(c)), isolation),
  });
}

describe('audit:verify while events are arriving', () => {
  const stack = new TestStack(SERVICES_DIR, { databaseUrl: DATABASE_URL });
  let db: Database;
  let trail: AuditTrailRepository;

  beforeAll(async () => {
    await stack.migrate('audit');
    db = createDatabase({
      databaseUrl: DATABASE_URL,
      schema: stack.schema('audit'),
      role: null,
      max: 3,
      settings: { TimeZone: 'UTC' },
    });
    trail = new AuditTrailRepository(db);
  });
  afterAll(async () => {
    await db?.close();
    await stack.stop();
  });

  it('does not report a row appended to a chain after its head was read as a missing row', async () => {
    const clientId = randomUUID();
    await trail.append([
      securityEventRow(signIn()),
      securityEventRow(signIn()),
      adminActionRow(thresholdsChanged(clientId)),
    ]);

    const during = await verifyTrail(arrivingAfterHeads(db, () => trail.append([securityEventRow(signIn())])));

    // As the trail stood when the run began; the next run verifies the row that arrived.
    expect(during).toEqual({ ok: true, rows: 3, chains: 2 });
    expect(await verifyTrail(db)).toEqual({ ok: true, rows: 4, chains: 2 });
  });

  it('does not report a chain begun after the heads were read as a chain without a head', async () => {
    const arriving = adminActionRow(thresholdsChanged(randomUUID()));

    const during = await verifyTrail(arrivingAfterHeads(db, () => trail.append([arriving])));

    expect(during).toEqual({ ok: true, rows: 4, chains: 2 });
    expect(await verifyTrail(db)).toEqual({ ok: true, rows: 5, chains: 3 });
  });
});
