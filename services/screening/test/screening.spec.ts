import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  contracts,
  type ScreeningCaller,
  type BulkScreenResponse,
  type DatasetsResponse,
  type EntityDetails,
  type ListsResponse,
  type ScreenResponse,
  type ScreenedEvent,
  type SearchResponse,
  screenedEventSchema,
} from '@vigil/proto';
import { writeV1 } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

jest.setTimeout(60_000);

const starter: ScreeningCaller = { clientId: 'client-starter', tier: 'starter', feeds: ['ofac', 'peps'] };
const large: ScreeningCaller = {
  clientId: 'client-large',
  tier: 'large',
  feeds: [
    'ofac',
    'peps',
    'regulatory',
    'sanctions',
    'wanted',
    'crime',
    'us_sanctions',
    'eu_sanctions',
    'gb_coh_disqualified',
  ],
};

describe('screening over NATS', () => {
  const h = new Harness();
  const screen = (caller: object, entity: object, extra: object = {}) =>
    h.value<ScreenResponse>('screening.v1.screen', { ...caller, entity, ...extra });

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeV1(dir);
    h.startService({ LISTS_DIR: dir });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
    await eventually(
      () => h.request(contracts.screening.screen, { ...large, entity: { name: 'Eric Badege' } }),
      (r) => r.ok,
    );
  });
  afterAll(() => h.stop());

  it('answers a listed name with status, label, source, explanation and the list versions searched', async () => {
    const res = await screen(large, { name: 'Viktor Bout', dateOfBirth: '1967-01-13' });
    expect(res).toMatchObject({
      match: true,
      blocked: true,
      status: 'blocked',
      label: 'Exact Match',
      algorithm: 'vigil-v3',
      thresholds: { highScore: 0.85, mediumScore: 0.6 },
    });
    const top = res.results[0]!;
    expect(top).toMatchObject({
      id: 'ofac-sdn:101',
      source: 'ofac-sdn',
      sourceId: '101',
      sourceDataset: 'ofac_sdn',
      feed: 'ofac',
      entityType: 'individual',
      status: 'blocked',
      programs: ['SDGT'],
    });
    expect(top.explanation.text).toContain('ofac-sdn:101');
    expect(top.explanation.tokens.map((t) => t.method)).toContain('exact');
    expect(top.explanation.qualifiers.map((q) => q.qualifier)).toContain('dob');
    expect(res.listVersions.map((v) => v.source).sort()).toEqual(['ofac-sdn', 'os-peps', 'un-sc']);
    expect(res.listVersions.every((v) => /^[0-9a-f]{64}$/.test(v.sha256) && v.versionId > 0)).toBe(true);
  });

  it('explains only flagged results when asked for explain=flagged, and summarises clear candidates', async () => {
    for (const entity of [{ name: 'Viktor Bout', dateOfBirth: '1967-01-13' }, { name: 'Viktor Boutique' }]) {
      const full = await screen(large, entity);
      const flagged = await screen(large, entity, { explain: 'flagged' });
      expect(flagged.results.map((r) => r.id)).toEqual(full.results.map((r) => r.id));
      for (const [k, result] of flagged.results.entries()) {
        const same = full.results[k]!;
        if (same.status === 'clear') expect(result).toEqual({ id: same.id, name: same.name, score: same.score });
        else expect(result).toEqual(same);
      }
      // Every screen is logged, however it is answered.
      expect(flagged.screeningId).not.toBe(full.screeningId);
    }
    const clear = await screen(large, { name: 'Viktor Boutique' }, { explain: 'flagged' });
    expect(clear.results.length).toBeGreaterThan(0);
    expect(clear.results.every((r) => Object.keys(r).sort().join() === 'id,name,score')).toBe(true);
  });

  it('answers a clear name with no match, and still says what it searched', async () => {
    const res = await screen(large, { name: 'Completely Ordinary Person' });
    expect(res).toMatchObject({ match: false, blocked: false, status: 'clear' });
    expect(res.results.every((r) => r.status === 'clear')).toBe(true);
    expect(res.listVersions).toHaveLength(3);
  });

  it('never gives a starter client a result from a feed outside its tier', async () => {
    const asLarge = await screen(large, { name: 'Eric Badege' });
    expect(asLarge.results[0]?.id).toBe('un-sc:CDi.002');
    for (const name of ['Eric Badege', 'Al Rashid Trust', 'Hani al-Sibai']) {
      const res = await screen(starter, { name });
      expect(res.results.filter((r) => r.feed !== 'ofac' && r.feed !== 'peps')).toEqual([]);
      expect(res.results.map((r) => r.source)).not.toContain('un-sc');
    }
    const res = await screen(starter, { name: 'Eric Badege' });
    expect(res.listVersions.map((v) => v.source).sort()).toEqual(['ofac-sdn', 'os-peps']);
    // Nor can it read the entity, download the dataset or find it by search.
    const entity = await h.request(contracts.screening.entity, { feeds: starter.feeds, id: 'un-sc:CDi.002' });
    expect(entity.ok ? 'found' : entity.error.code).toBe('NOT_FOUND');
    const dataset = await h.request('screening.v1.datasets', { feeds: starter.feeds, source: 'un-sc' });
    expect(dataset.ok ? 'found' : dataset.error.code).toBe('NOT_FOUND');
    const search = await h.value<SearchResponse>('screening.v1.search', { feeds: starter.feeds, query: 'Badege' });
    expect(search.hits).toEqual([]);
    const bulk = await h.value<BulkScreenResponse>('screening.v1.bulk-screen', {
      ...starter,
      names: ['Eric Badege', 'Al Rashid Trust'],
    });
    expect(bulk.results.flatMap((r) => r.results).filter((m) => m.source === 'un-sc')).toEqual([]);
  });

  it('finds an entity by a listed email address', async () => {
    const res = await screen(starter, { email: 'Tomasz@Parliament.example' });
    expect(res.results[0]).toMatchObject({ id: 'os-peps:pep-2', matchedOn: 'email', score: 1, feed: 'peps' });
  });

  it('applies the client thresholds to status, and refuses inconsistent ones', async () => {
    const strict = await screen(
      large,
      { name: 'Viktor Bout' },
      { thresholds: { HIGH_SCORE: 0.999, MEDIUM_SCORE: 0.5 } },
    );
    expect(strict.results[0]!.score).toBeLessThan(0.999);
    expect(strict.status).toBe('review');
    const bad = await h.request('screening.v1.screen', {
      ...large,
      entity: { name: 'x' },
      thresholds: { HIGH_SCORE: 0.5, MEDIUM_SCORE: 0.7 },
    });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('VALIDATION_FAILED');
  });

  it('applies the fuzzy thresholds per query: edit distance, trigram similarity and shared trigrams', async () => {
    const top = (r: ScreenResponse) => (r.results[0] ? `${r.results[0].id}:${r.results[0].status}` : 'none');
    const withThresholds = (name: string, thresholds: object) => screen(large, { name }, { thresholds });
    // LEV_DISTANCE_MAX: two edits in the surname are a match with the default (2), not with 1.
    expect(top(await screen(large, { name: 'Tyomasz Wieckowrek' }))).toBe('os-peps:pep-2:blocked');
    expect(top(await withThresholds('Tyomasz Wieckowrek', { LEV_DISTANCE_MAX: 1 }))).toBe('os-peps:pep-2:clear');
    // DB_SIM_THRESHOLD: a strict trigram similarity reaches no list token for either misspelt name.
    expect(top(await screen(large, { name: 'Tomsasz Wimczorek' }))).toBe('os-peps:pep-2:blocked');
    expect(top(await withThresholds('Tomsasz Wimczorek', { DB_SIM_THRESHOLD: 0.8 }))).toBe('none');
    // TRIGRAM_HITS_MIN: with a loose similarity, one shared trigram reaches KADYROV; four do not.
    expect(top(await withThresholds('Rkmzan Kdgyrov', { DB_SIM_THRESHOLD: 0.2, TRIGRAM_HITS_MIN: 1 }))).toBe(
      'ofac-sdn:103:clear',
    );
    expect(top(await withThresholds('Rkmzan Kdgyrov', { DB_SIM_THRESHOLD: 0.2, TRIGRAM_HITS_MIN: 4 }))).toBe('none');
    // MEDIUM_SCORE: a review result becomes clear once the band starts above its score.
    const review = await screen(large, { name: 'Ramzan Kamdirov' });
    expect(review.status).toBe('review');
    const raised = await withThresholds('Ramzan Kamdirov', { MEDIUM_SCORE: Math.min(0.84, review.topScore + 0.01) });
    expect(raised.status).toBe('clear');
  });

  it('records a log for every screen, an alert for a blocked one and a review for a review one, and publishes screening.v1.screened', async () => {
    const blocked = await screen({ ...large, clientId: 'client-audit' }, { name: 'Banco Nacional de Cuba' });
    const review = await screen(
      { ...large, clientId: 'client-audit' },
      { name: 'Ramzan Kadyrov' },
      { thresholds: { HIGH_SCORE: 0.999, MEDIUM_SCORE: 0.3 } },
    );
    const clear = await screen({ ...large, clientId: 'client-audit' }, { name: 'Nobody In Particular' });
    expect([blocked.status, review.status, clear.status]).toEqual(['blocked', 'review', 'clear']);

    const logs = await h.query<{
      id: string;
      status: string;
      is_alert: boolean;
      match_found: boolean;
      top_entity_id: string | null;
      tier: string;
      score: string;
      source_list: string | null;
    }>(
      `SELECT id, status, is_alert, match_found, top_entity_id, tier, score, source_list FROM $schema.screening_logs WHERE client_id = 'client-audit' ORDER BY created_at`,
    );
    expect(logs.map((l) => [l.id, l.status, l.is_alert, l.match_found])).toEqual([
      [blocked.screeningId, 'blocked', true, true],
      [review.screeningId, 'review', false, true],
      [clear.screeningId, 'clear', false, false],
    ]);
    expect(logs[0]).toMatchObject({ top_entity_id: 'ofac-sdn:104', tier: 'large', source_list: 'ofac_sdn' });
    expect(Number(logs[0]!.score)).toBe(blocked.topScore);

    const alerts = await h.query(
      `SELECT screening_log_id, matched_entity_id, full_name, reviewed FROM $schema.sanction_alerts WHERE client_id = 'client-audit'`,
    );
    expect(alerts).toEqual([
      {
        screening_log_id: blocked.screeningId,
        matched_entity_id: 'ofac-sdn:104',
        full_name: 'Banco Nacional de Cuba',
        reviewed: false,
      },
    ]);
    const reviews = await h.query(
      `SELECT screening_log_id, matched_entity_id, searched_input, status, raised_as FROM $schema.pending_reviews
        WHERE client_id = 'client-audit' ORDER BY raised_as DESC`,
    );
    // The blocked screen opens a case too: a block is a decision to confirm or overturn (issue #36).
    expect(reviews).toEqual([
      {
        screening_log_id: review.screeningId,
        matched_entity_id: 'ofac-sdn:103',
        searched_input: 'Ramzan Kadyrov',
        status: 'pending',
        raised_as: 'review',
      },
      {
        screening_log_id: blocked.screeningId,
        matched_entity_id: 'ofac-sdn:104',
        searched_input: 'Banco Nacional de Cuba',
        status: 'pending',
        raised_as: 'blocked',
      },
    ]);

    const { value: events } = await eventually(
      () => h.streamMessages<ScreenedEvent>('SCREENINGS', 'screening.v1.screened'),
      (e) => [blocked, review, clear].every((s) => e.some((m) => m.eventId === s.screeningId)),
    );
    const event = events.find((e) => e.eventId === blocked.screeningId)!;
    expect(event).toMatchObject({
      screeningId: blocked.screeningId,
      kind: 'single',
      clientId: 'client-audit',
      tier: 'large',
      status: 'blocked',
      isAlert: true,
      topEntityId: 'ofac-sdn:104',
    });
    expect(event.listVersions).toHaveLength(3);
    // Every field the contract names, nothing else, and the values the log holds.
    const [logged] = await h.query<{ created_at: Date; matched_entity_name: string; request_id: string | null }>(
      `SELECT created_at, matched_entity_name, request_id FROM $schema.screening_logs WHERE id = $1`,
      [blocked.screeningId],
    );
    expect(screenedEventSchema.strict().parse(event)).toEqual({
      eventId: blocked.screeningId,
      screeningId: blocked.screeningId,
      kind: 'single',
      clientId: 'client-audit',
      tier: 'large',
      requestId: logged!.request_id,
      searchedName: 'Banco Nacional de Cuba',
      searchedEmail: null,
      matchFound: true,
      status: 'blocked',
      score: blocked.topScore,
      topEntityId: 'ofac-sdn:104',
      matchedName: logged!.matched_entity_name,
      sourceList: 'ofac_sdn',
      isAlert: true,
      listVersions: event.listVersions,
      createdAt: logged!.created_at.toISOString(),
      // A request straight on the bus names no actor (the gateway always names one, issue #33).
      actor: null,
    });
    // Each event once, whatever the group commit put in one outbox row.
    expect(events.filter((e) => e.clientId === 'client-audit')).toHaveLength(3);
    await eventually(
      () => h.query<{ n: number }>(`SELECT count(*)::int AS n FROM $schema.outbox_batches`),
      (rows) => rows[0]!.n === 0,
    );
  });

  it('screens up to 1,000 names in one request and logs each', async () => {
    const names = [
      'Viktor Bout',
      'Aerocaribbean Airlines',
      'Someone Unlisted',
      ...Array.from({ length: 997 }, (_, i) => `Person Number ${i}`),
    ];
    const res = await h.value<BulkScreenResponse>(
      'screening.v1.bulk-screen',
      { ...large, clientId: 'client-bulk', names },
      60_000,
    );
    expect(res.results).toHaveLength(1000);
    expect(res.results[0]).toMatchObject({ searchedName: 'Viktor Bout', match: true, blocked: true });
    expect(res.results[0]!.results[0]).toMatchObject({ id: 'ofac-sdn:101', sourceDataset: 'ofac_sdn' });
    expect(res.results[2]).toMatchObject({
      searchedName: 'Someone Unlisted',
      match: false,
      blocked: false,
      results: [],
    });
    expect(res.summary).toEqual({
      total: 1000,
      matches: res.results.filter((r) => r.match).length,
      blocked: res.results.filter((r) => r.blocked).length,
    });
    const counted = await h.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM $schema.screening_logs WHERE client_id = 'client-bulk' AND kind = 'bulk'`,
    );
    expect(counted[0]?.n).toBe(1000);
    // Published one event per name, though a batch this large is split over several outbox rows.
    const { value: bulkEvents } = await eventually(
      () => h.streamMessages<ScreenedEvent>('SCREENINGS', 'screening.v1.screened'),
      (e) => e.filter((m) => m.clientId === 'client-bulk').length >= 1000,
    );
    const bulkIds = bulkEvents.filter((m) => m.clientId === 'client-bulk').map((m) => m.eventId);
    expect(new Set(bulkIds).size).toBe(1000);
    expect(bulkIds).toHaveLength(1000);
    expect(new Set(bulkIds)).toEqual(new Set(res.results.map((r) => r.screeningId)));
    const tooMany = await h.request('screening.v1.bulk-screen', { ...large, names: Array(1001).fill('x') });
    expect(tooMany.ok ? 'ok' : tooMany.error.code).toBe('VALIDATION_FAILED');
  });

  // Found by `npm run test:resilience`: a bulk job's chunk redelivered after a SIGKILL was screened
  // again under new random ids, so its names were logged (and audited, and quota-counted in reports)
  // twice — 10,374 logs for 10,000 names. With the caller's ids the retry adds nothing.
  it('logs a retried bulk request once when the caller names the screening ids', async () => {
    const names = ['Viktor Bout', 'Aerocaribbean Airlines', 'Someone Unlisted'];
    const screeningIds = names.map(() => randomUUID());
    const request = { ...large, clientId: 'client-bulk-retry', names, screeningIds };
    const first = await h.value<BulkScreenResponse>('screening.v1.bulk-screen', request);
    const again = await h.value<BulkScreenResponse>('screening.v1.bulk-screen', request);
    expect(first.results.map((r) => r.screeningId)).toEqual(screeningIds);
    expect(again.results.map((r) => r.screeningId)).toEqual(screeningIds);
    const logged = await h.query<{ n: number; alerts: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE is_alert)::int AS alerts
         FROM $schema.screening_logs WHERE client_id = 'client-bulk-retry'`,
    );
    expect(logged[0]).toEqual({ n: 3, alerts: first.summary.blocked });
    const alerts = await h.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM $schema.sanction_alerts WHERE client_id = 'client-bulk-retry'`,
    );
    expect(alerts[0]?.n).toBe(first.summary.blocked);
    const mismatched = await h.request('screening.v1.bulk-screen', { ...request, screeningIds: [randomUUID()] });
    expect(mismatched.ok ? 'ok' : mismatched.error.code).toBe('VALIDATION_FAILED');
  });

  // Issue #24: the gateway settles each quota lease to the screens logged under it, after the
  // lease's answer-by time. A screen that arrives later must not be logged (nor answered), or it
  // would be an answer nobody is charged for.
  it('logs screens under their quota lease until its answer-by time, refuses them after, and counts them per lease', async () => {
    const lease = randomUUID();
    const live = { id: lease, answerBy: new Date(Date.now() + 60_000).toISOString() };
    const caller = { ...large, clientId: 'client-quota-lease' };
    const one = await screen(caller, { name: 'Viktor Bout' }, { quotaLease: live });
    // A retry of the same operation (same screening id) is logged once.
    const retried = randomUUID();
    await screen(caller, { name: 'Someone Unlisted' }, { quotaLease: live, screeningId: retried });
    await screen(caller, { name: 'Someone Unlisted' }, { quotaLease: live, screeningId: retried });
    await h.value<BulkScreenResponse>('screening.v1.bulk-screen', {
      ...caller,
      names: ['Jane Doe', 'John Smith'],
      quotaLease: live,
    });

    const lapsed = { id: lease, answerBy: new Date(Date.now() - 1_000).toISOString() };
    const late = await h.request('screening.v1.screen', {
      ...caller,
      entity: { name: 'Viktor Bout' },
      quotaLease: lapsed,
    });
    expect(late.ok ? 'answered' : late.error.code).toBe('SERVICE_UNAVAILABLE');
    const lateBulk = await h.request('screening.v1.bulk-screen', {
      ...caller,
      names: ['Jane Doe'],
      quotaLease: lapsed,
    });
    expect(lateBulk.ok ? 'answered' : lateBulk.error.code).toBe('SERVICE_UNAVAILABLE');

    const logged = await h.query<{ id: string }>(
      `SELECT id::text FROM $schema.screening_logs WHERE client_id = 'client-quota-lease' AND quota_lease = $1`,
      [lease],
    );
    expect(logged).toHaveLength(4);
    expect(logged.map((r) => r.id)).toContain(one.screeningId);
    const reviewsOrAlerts = await h.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM $schema.sanction_alerts WHERE client_id = 'client-quota-lease')::int
            + (SELECT count(*) FROM $schema.pending_reviews WHERE client_id = 'client-quota-lease')::int AS n`,
    );
    // The refused Viktor Bout raised nothing: only the logged one may have (a block: its alert and its case).
    expect(reviewsOrAlerts[0]!.n).toBeLessThanOrEqual(2);
    const other = randomUUID();
    const counted = await h.value<{ answers: Array<{ leaseId: string; answered: number }> }>(
      'screening.v1.logs.quota-lease-answers',
      { leaseIds: [lease, other] },
    );
    expect(counted.answers).toEqual(
      expect.arrayContaining([
        { leaseId: lease, answered: 4 },
        { leaseId: other, answered: 0 },
      ]),
    );
  });

  it('gives full entity details, a paged dataset download and free-text search', async () => {
    const entity = await h.value<EntityDetails>('screening.v1.entity', { feeds: large.feeds, id: 'ofac-sdn:101' });
    expect(entity).toMatchObject({
      id: 'ofac-sdn:101',
      name: 'BOUT, Viktor Anatolyevich',
      entityType: 'individual',
      sourceDataset: 'ofac_sdn',
      feed: 'ofac',
      datesOfBirth: ['1967-01-13'],
    });
    expect(entity.aliases.map((a) => a.full)).toContain('BUT, Viktor');
    expect(entity.addedInVersion).toBe(entity.listVersion);

    const page1 = await h.value<DatasetsResponse>('screening.v1.datasets', {
      feeds: large.feeds,
      source: 'ofac-sdn',
      format: 'csv',
      limit: 3,
    });
    expect(page1.totalEntities).toBe(5);
    expect(page1.csv!.split('\r\n')[0]).toBe(
      'id,source,source_id,entity_type,name,aliases,dates_of_birth,places_of_birth,nationalities,addresses,identifiers,programs,listing_date,remarks,source_url',
    );
    expect(page1.nextCursor).toBeTruthy();
    const page2 = await h.value<DatasetsResponse>('screening.v1.datasets', {
      feeds: large.feeds,
      source: 'ofac-sdn',
      format: 'csv',
      limit: 3,
      cursor: page1.nextCursor,
    });
    expect(page2.nextCursor).toBeNull();
    const rows = [...page1.csv!.trim().split('\r\n').slice(1), ...page2.csv!.trim().split('\r\n')];
    expect(rows.map((r) => r.split(',')[0])).toEqual([
      'ofac-sdn:101',
      'ofac-sdn:102',
      'ofac-sdn:103',
      'ofac-sdn:104',
      'ofac-sdn:105',
    ]);
    const json = await h.value<DatasetsResponse>('screening.v1.datasets', {
      feeds: large.feeds,
      source: 'os-peps',
      format: 'json',
    });
    expect(json.entities!.map((e) => e.name)).toEqual(['Marisol Ventura Quiroga', 'Tomasz Wieczorek']);

    const byText = await h.value<SearchResponse>('screening.v1.search', { feeds: large.feeds, query: 'caribbean' });
    expect(byText.hits.map((h) => h.id)).toContain('ofac-sdn:102');
    const byId = await h.value<SearchResponse>('screening.v1.search', { feeds: large.feeds, query: 'un-sc:QDe.003' });
    expect(byId.hits[0]).toMatchObject({ id: 'un-sc:QDe.003', matchedBy: 'id', score: 1 });
    const missing = await h.request('screening.v1.entity', { feeds: large.feeds, id: 'ofac-sdn:999999' });
    expect(missing.ok ? 'found' : missing.error.code).toBe('NOT_FOUND');
  });

  it('rejects an invalid request with a pointer to the field', async () => {
    const reply = await h.request('screening.v1.screen', { ...large, feeds: ['ofac', 'everything'], entity: {} });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(reply.error.errors)).toContain('/feeds/1');
    }
  });
});
