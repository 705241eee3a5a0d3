import { jest } from '@jest/globals';
import { DEFAULT_THRESHOLDS, FEEDS, contracts, type MonitoringCaller } from '@vigil/proto';
import { MonitoringStack, eventually } from './harness.js';

jest.setTimeout(240_000);

// Scheduled checks: due-ness lives in Postgres (next_check_due), passes claim with FOR UPDATE SKIP
// LOCKED and a lease. Each check is one screening, which the screening service logs: the logs
// tell how many times each entity was checked, whichever replica did it.

const caller: MonitoringCaller = {
  clientId: 'sched-client',
  tier: 'large',
  feeds: [...FEEDS],
  thresholds: { ...DEFAULT_THRESHOLDS },
};
const N = 400;
const names = Array.from({ length: N }, (_, i) => `Scheduled Customer ${String(i).padStart(4, '0')} Holdings`);

describe('the scheduler', () => {
  const stack = new MonitoringStack();

  beforeAll(() => stack.start(['screening', 'monitoring'], { MONITORING_SCHEDULER: 'false' }));
  afterAll(() => stack.stop());

  const stats = () => stack.request(contracts.monitoring.stats, { caller });
  const screeningsPerName = () =>
    stack.db
      .query<{ searched_name: string; n: number }>(
        `SELECT searched_name, count(*)::int AS n FROM "${stack.schema('screening')}".screening_logs
          WHERE client_id = $1 GROUP BY searched_name`,
        [caller.clientId],
      )
      .then((r) => new Map(r.rows.map((row) => [row.searched_name, row.n])));

  it('reports overdue checks, runs each due check once across two replicas, and keeps its schedule over restarts', async () => {
    // Without a scheduler running, new entities are due and nothing checks them.
    await stack.request(contracts.monitoring.entities.bulkAdd, {
      caller,
      entities: names.map((entity_name, i) => ({
        entity_name,
        check_frequency: (['daily', 'weekly', 'monthly'] as const)[i % 3],
      })),
    });
    await stack.query(`UPDATE $schema.monitored_entities SET next_check_due = now() - interval '2 hours'`);
    expect((await stats()).stats.overdue_checks).toBe(N);

    // Two replicas with the scheduler on, small batches, so both claim work.
    await stack.kill('monitoring', 'SIGTERM');
    stack.startService(
      'monitoring',
      { MONITORING_SCHEDULER: 'true', SCHEDULER_BATCH: '25', CHECK_LEASE_MS: '3000' },
      'm1',
    );
    stack.startService(
      'monitoring',
      { MONITORING_SCHEDULER: 'true', SCHEDULER_BATCH: '25', CHECK_LEASE_MS: '3000' },
      'm2',
    );
    await eventually(
      () => stats().catch(() => null),
      (s) => s !== null && s.stats.overdue_checks === 0 && s.stats.last_check_time !== null,
      90_000,
    );
    const perName = await screeningsPerName();
    expect(perName.size).toBe(N);
    expect([...perName.values()].every((n) => n === 1)).toBe(true);
    const due = await stack.query<{ check_frequency: string; days: number }>(
      `SELECT check_frequency, round(extract(epoch FROM next_check_due - last_checked) / 86400)::int AS days
         FROM $schema.monitored_entities GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(due).toEqual([
      { check_frequency: 'daily', days: 1 },
      { check_frequency: 'monthly', days: expect.any(Number) },
      { check_frequency: 'weekly', days: 7 },
    ]);
    expect(due[1]!.days).toBeGreaterThanOrEqual(28);

    // kill -9 both; after a restart nothing is checked again before it is due…
    await stack.kill('m1');
    await stack.kill('m2');
    // …and a claim a dead replica held (claimed_until in the future) is taken over once its lease ends.
    await stack.query(
      `UPDATE $schema.monitored_entities SET next_check_due = now() - interval '1 minute', claimed_until = now() + interval '2 seconds'
        WHERE entity_name = ANY($1)`,
      [names.slice(0, 10)],
    );
    stack.startService('monitoring', { MONITORING_SCHEDULER: 'true' }, 'm3');
    await eventually(screeningsPerName, (m) => names.slice(0, 10).every((n) => m.get(n) === 2), 30_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const after = await screeningsPerName();
    expect(names.slice(0, 10).map((n) => after.get(n))).toEqual(Array(10).fill(2));
    expect(names.slice(10).every((n) => after.get(n) === 1)).toBe(true);
    expect((await stats()).stats.overdue_checks).toBe(0);
  });

  // Found by `npm run test:resilience`: a replica SIGKILLed after screening a due check but before
  // recording its outcome left the check due, and the rerun logged every name a second time.
  it('logs a due check that runs again (its first run died unrecorded) once; a later check anew', async () => {
    const name = 'Rerun After Crash Customer Holdings';
    await stack.request(contracts.monitoring.entities.bulkAdd, { caller, entities: [{ entity_name: name, check_frequency: 'daily' }] });
    const dueAt = async (due: string) => {
      await stack.query(`UPDATE $schema.monitored_entities SET next_check_due = $1, claimed_until = NULL WHERE entity_name = $2`, [due, name]);
      // Checked once the scheduler has moved the entity's due time past the one it claimed.
      await eventually(
        () => stack.query<{ later: boolean }>(`SELECT next_check_due > $1::timestamptz AS later FROM $schema.monitored_entities WHERE entity_name = $2`, [due, name]),
        (rows) => rows[0]?.later === true,
        30_000,
      );
      return (await screeningsPerName()).get(name);
    };
    // A new entity is checked as soon as it is added.
    await eventually(screeningsPerName, (m) => m.get(name) === 1, 30_000);
    expect(await dueAt('2026-01-01T00:00:00Z')).toBe(2);
    // The same due check again, as after a crash between screening and recording: nothing new is logged.
    expect(await dueAt('2026-01-01T00:00:00Z')).toBe(2);
    expect(await dueAt('2026-01-02T00:00:00Z')).toBe(3);
  });
});
