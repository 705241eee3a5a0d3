import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { AuditStack } from './harness.js';

jest.setTimeout(240_000);

// Issue #35: the evidence export answered 504 once a window held more than ~600–850 screenings,
// because a page of 1,000 records (each with its canonical text) overran the bus's 1 MiB message.
// Pages now end by size too, and the HTTP answer streams page after page, in JSON, NDJSON and CSV.

const SCREENINGS = 2_500;

type Record = { kind: string; seq: number; searchedName: string; prevHash: string; hash: string; canonical: string };

describe('the evidence export at any size', () => {
  const stack = new AuditStack();
  let member: Awaited<ReturnType<AuditStack['member']>>;
  const as = () => ({ 'x-api-key': member.key, authorization: `Bearer ${member.token}` });
  const evidence = (query: string) => stack.http('GET', `/api/client/audit/screenings${query}`, { headers: as() });

  beforeAll(async () => {
    await stack.start();
    member = await stack.member('large', `evidence-scale-${Date.now()}@example.com`, 'Evidence At Scale Bank');
    // Screenings as the trail records them from screening.v1.screened (the chain trigger hashes
    // each), written straight into audit's table: 2,500 screenings through the API would take minutes.
    const chain = `client:${member.id}`;
    const versions = JSON.stringify(
      ['ofac-sdn', 'un-consolidated', 'eu-fsf', 'uk-hmt', 'opensanctions-peps'].map((source, i) => ({
        source,
        versionId: 1000 + i,
      })),
    );
    await stack.sql(
      'audit',
      `INSERT INTO screening_events (event_id, screening_id, kind, client_id, tier, actor_id, request_id, searched_name,
         searched_email, match_found, status, score, top_entity_id, matched_name, source_list, is_alert, list_versions,
         occurred_at, chain_id, chain_seq, prev_hash, hash)
       SELECT 'scale-' || n, gen_random_uuid()::text, 'screen', $1, 'large', $2, gen_random_uuid()::text,
              'Customer Number ' || n || ' Of The Retail Book', 'customer' || n || '@example.com', n % 7 = 0,
              CASE WHEN n % 7 = 0 THEN 'review' ELSE 'clear' END, 0.42, NULL, NULL, NULL, false, $3::jsonb,
              now() - ((${SCREENINGS} - n) * interval '1 second'), $2, 0, '', ''
         FROM generate_series(1, ${SCREENINGS}) AS n ORDER BY n`,
      [member.id, chain, versions],
    );
  });
  afterAll(() => stack.stop());

  /** Every record present once, in chain order, each hash recomputable and linked to the one before. */
  function expectWholeChain(records: Record[]) {
    expect(records).toHaveLength(SCREENINGS);
    records.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      expect(r.searchedName).toBe(`Customer Number ${i + 1} Of The Retail Book`);
      expect(r.prevHash).toBe(i === 0 ? '0'.repeat(64) : records[i - 1]!.hash);
      expect(createHash('sha256').update(r.prevHash).update(r.canonical).digest('hex')).toBe(r.hash);
    });
  }

  it('exports 2,500 screenings as one JSON document (it was a 504)', async () => {
    const res = await evidence('');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(res.text.length).toBeGreaterThan(2 * 1024 * 1024); // more than one bus message could ever carry
    expect(res.body).toMatchObject({ clientId: member.id, chain: `client:${member.id}`, from: null, to: null });
    expectWholeChain(res.body.records);
  });

  it('streams them as NDJSON, one record per line', async () => {
    const res = await evidence('?format=ndjson');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    expect(res.headers.get('content-disposition')).toMatch(/filename="screening-evidence-.*\.ndjson"/);
    expect(res.text.endsWith('\n')).toBe(true);
    expectWholeChain(
      res.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record),
    );
  });

  it('streams them as CSV, one row per record, and a window cuts them', async () => {
    const res = await evidence('?format=csv');
    expect(res.status).toBe(200);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(SCREENINGS + 1);
    expect(lines[1]).toMatch(/^screening,client:[^,]+,1,/);
    expect(lines.at(-1)).toMatch(new RegExp(`^screening,client:[^,]+,${SCREENINGS},`));
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await evidence(`?format=ndjson&from=${encodeURIComponent(future)}`)).text).toBe('');
  });
});
