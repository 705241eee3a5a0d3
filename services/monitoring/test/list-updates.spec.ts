import { jest } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { DEFAULT_THRESHOLDS, FEEDS, contracts, streams, subjects, type MonitoringCaller } from '@vigil/proto';
import { MonitoringStack, eventually } from './harness.js';

jest.setTimeout(300_000);

// The OFAC SDN release of 2024-05-03 against the one of 2023-12-28 (../shared/data): 358 entities
// added, 26 changed, 65 removed. Ten monitored names are people it adds (each scores ≥ 0.97 on its
// entity in 2024 and < 0.5 on anything in 2023), and one is a wallet address the 2024 release lists
// (an exchange monitoring a counterparty's wallet); twenty match nothing in either release.
const MATCHING: ReadonlyArray<[string, string]> = [
  ['Isel Aneli Suniga Morfin', 'ofac-sdn:34916'],
  ['Erick Manuel Ochoa Villagran', 'ofac-sdn:39197'],
  ['Diego Macedo Goncalves Do Carmo', 'ofac-sdn:43876'],
  ['Timur Nailevich Shagivaleev', 'ofac-sdn:45710'],
  ['Aleksei Vadimovich Florov', 'ofac-sdn:45711'],
  ['Ekrem Abdulkerym Oztunc', 'ofac-sdn:46249'],
  ['Reza Hamidiravari', 'ofac-sdn:46877'],
  ['Damion Patrick John Ryan', 'ofac-sdn:46882'],
  ['Adam Richard Pearson', 'ofac-sdn:46883'],
  ['Jose Adolfo Macias Villamar', 'ofac-sdn:47287'],
  // OKO DESIGN BUREAU's ETH address, first listed in the 2024 release: found by the address, not a name.
  ['0x19F8f2B0915Daa12a3f5C9CF01dF9E24D53794F7', 'ofac-sdn:48432'],
];
const NOT_MATCHING = [
  'Margaret Thornbury',
  'Oliver Pennington-Smythe',
  'Harriet Quenby',
  'Bartholomew Ashdown',
  'Lucinda Fairweather',
  'Percival Grimsby',
  'Rosalind Ketteridge',
  'Ambrose Whitlock',
  'Fitzgerald Ormsby',
  'Winifred Lockhart',
  'Thaddeus Brightwell',
  'Evangeline Marchbanks',
  'Cornelius Wadsworth',
  'Philippa Hargreave',
  'Montgomery Tibbs',
  'Gwendolyn Eastleigh',
  'Barnaby Copperfield',
  'Isadora Bellweather',
  'Clementine Ashcombe',
  'Horatio Blandford',
];

const caller = (clientId: string): MonitoringCaller => ({
  clientId,
  tier: 'large',
  feeds: [...FEEDS],
  thresholds: { ...DEFAULT_THRESHOLDS },
});

type AlertRow = { entity_name: string; matched_entity_id: string; alert_type: string; client_id: string };

async function alerts(stack: MonitoringStack): Promise<AlertRow[]> {
  return stack.query<AlertRow>(
    'SELECT entity_name, matched_entity_id, alert_type, client_id FROM $schema.monitoring_alerts ORDER BY entity_name',
  );
}

const expected = MATCHING.map(([name, id]) => ({
  entity_name: name,
  matched_entity_id: id,
  alert_type: 'new_match',
})).sort((x, y) => x.entity_name.localeCompare(y.entity_name));
const shape = (rows: AlertRow[]) =>
  rows
    .map(({ entity_name, matched_entity_id, alert_type }) => ({ entity_name, matched_entity_id, alert_type }))
    .sort((x, y) => x.entity_name.localeCompare(y.entity_name));

/** Monitors the 31 names, spread over `clients` clients, and waits until each had its first check. */
async function monitor(stack: MonitoringStack, clients: number) {
  const names = [...MATCHING.map(([n]) => n), ...NOT_MATCHING];
  for (let c = 0; c < clients; c++) {
    const mine = names.filter((_, i) => i % clients === c);
    await stack.request(contracts.monitoring.entities.bulkAdd, {
      caller: caller(`client-${c}`),
      entities: mine.map((entity_name) => ({ entity_name })),
    });
  }
  await eventually(
    () =>
      stack.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM $schema.monitored_entities WHERE last_checked IS NOT NULL',
      ),
    (rows) => rows[0]!.n === names.length,
    60_000,
  );
  // Against the 2023 release none of them matches anything.
  expect(await alerts(stack)).toEqual([]);
}

/** The lists.v1.updated event screening published, read back from the LISTS stream. */
async function lastEvent(stack: MonitoringStack): Promise<Record<string, unknown>> {
  const jsm = await jetstreamManager(stack.nc);
  const message = await jsm.streams.getMessage(streams.lists.name, { last_by_subj: subjects.lists.updated });
  return message!.json();
}

async function redeliver(stack: MonitoringStack, event: Record<string, unknown>, suffix: string) {
  // A new message id, so the stream's duplicate window does not drop it: a second delivery.
  await jetstream(stack.nc).publish(subjects.lists.updated, JSON.stringify(event), {
    msgID: `${String(event.eventId)}-${suffix}`,
  });
}

describe('delta-driven re-screening of monitored names (OFAC SDN 2023-12-28 → 2024-05-03)', () => {
  const stack = new MonitoringStack();

  beforeAll(() => stack.start(['screening', 'monitoring']));
  afterAll(() => stack.stop());

  it('raises exactly the expected alerts within 60 s of the ingestion starting, and nothing on a second delivery', async () => {
    await monitor(stack, 1);
    const started = Date.now();
    const update = await stack.ingestOfacUpdate();
    // Screening's own delta (its entity ids and content hashes), not the ent_num diff above.
    expect(update.delta.added).toBeGreaterThanOrEqual(358);
    process.stdout.write(`screening's delta: ${JSON.stringify(update.delta)}\n`);
    const { elapsedMs } = await eventually(
      () => alerts(stack),
      (rows) => rows.length >= expected.length,
      60_000,
    );
    const total = Date.now() - started;
    process.stdout.write(
      `ingestion started → ${expected.length} alerts: ${total} ms (alerts appeared ${elapsedMs} ms after the refresh answered)\n`,
    );
    expect(total).toBeLessThan(60_000);
    const processed = await stack.query<{
      candidates: number;
      alerts_raised: number;
      delta_names: number;
      duration_ms: number;
    }>('SELECT candidates, alerts_raised, delta_names, duration_ms FROM $schema.list_updates_processed');
    expect(processed).toHaveLength(1);
    process.stdout.write(`re-screen: ${JSON.stringify(processed[0])}\n`);
    // The lookup touched candidates only: not the 20 that match nothing.
    expect(processed[0]!.candidates).toBeLessThan(MATCHING.length + NOT_MATCHING.length);
    expect(processed[0]!.alerts_raised).toBe(MATCHING.length);
    expect(shape(await alerts(stack))).toEqual(expected);

    const event = await lastEvent(stack);
    expect(event.versionId).toBe(update.versionId);
    await redeliver(stack, event, 'again');
    // Even with the version's record gone, the per-(version, entity) record keeps it from raising twice.
    await new Promise((r) => setTimeout(r, 3_000));
    await stack.query('DELETE FROM $schema.list_updates_processed');
    await redeliver(stack, event, 'third');
    await eventually(
      () => stack.query('SELECT 1 FROM $schema.list_updates_processed'),
      (rows) => rows.length === 1,
      30_000,
    );
    expect(shape(await alerts(stack))).toEqual(expected);
    const [again] = await stack.query<{ alerts_raised: number }>(
      'SELECT alerts_raised FROM $schema.list_updates_processed',
    );
    expect(again!.alerts_raised).toBe(0);
  });
});

describe('kill -9 of monitoring in the middle of a re-screen', () => {
  const stack = new MonitoringStack();
  const CLIENTS = 20;

  beforeAll(() => stack.start(['screening', 'monitoring']));
  afterAll(() => stack.stop());

  it('after a restart every expected alert exists exactly once', async () => {
    // The ten matching names in each of 20 clients (and the twenty others in the first): the
    // re-screen commits client by client, so there is a middle to die in.
    for (let c = 0; c < CLIENTS; c++) {
      await stack.request(contracts.monitoring.entities.bulkAdd, {
        caller: caller(`client-${c}`),
        entities: [...MATCHING.map(([n]) => n), ...(c === 0 ? NOT_MATCHING : [])].map((entity_name) => ({
          entity_name,
        })),
      });
    }
    const total = CLIENTS * MATCHING.length + NOT_MATCHING.length;
    await eventually(
      () =>
        stack.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM $schema.monitored_entities WHERE last_checked IS NOT NULL',
        ),
      (rows) => rows[0]!.n === total,
      90_000,
    );
    expect(await alerts(stack)).toEqual([]);
    await stack.ingestOfacUpdate();
    await eventually(
      () => stack.query<{ n: number }>('SELECT count(*)::int AS n FROM $schema.rescreen_checks'),
      (rows) => rows[0]!.n > 0,
      60_000,
    );
    await stack.kill('monitoring', 'SIGKILL');
    const [atKill] = await stack.query<{ n: number }>('SELECT count(*)::int AS n FROM $schema.rescreen_checks');
    const alertsAtKill = (await alerts(stack)).length;
    process.stdout.write(
      `killed with ${atKill!.n} of ${CLIENTS * MATCHING.length} entities re-screened and ${alertsAtKill} alerts\n`,
    );
    expect(alertsAtKill).toBeGreaterThan(0);
    expect(alertsAtKill).toBeLessThan(CLIENTS * MATCHING.length);
    stack.startService('monitoring');
    await eventually(
      () => stack.query('SELECT 1 FROM $schema.list_updates_processed'),
      (rows) => rows.length === 1,
      90_000,
    );
    const rows = await alerts(stack);
    expect(rows).toHaveLength(CLIENTS * MATCHING.length);
    for (let c = 0; c < CLIENTS; c++) {
      expect(shape(rows.filter((r) => r.client_id === `client-${c}`))).toEqual(expected);
    }
  });
});
