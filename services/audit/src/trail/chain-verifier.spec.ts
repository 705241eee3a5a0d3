import { GENESIS, rowHash, verifyChains, type Query } from './chain-verifier.js';

type Row = {
  chain_id: string;
  chain_seq: number;
  prev_hash: string;
  hash: string;
  tbl: string;
  seq: number;
  event_id: string | null;
  canonical: string;
};

/** A chain of `n` rows as the trigger writes them. */
function chain(id: string, n: number): Row[] {
  const rows: Row[] = [];
  let prev = GENESIS;
  for (let i = 1; i <= n; i++) {
    const canonical = JSON.stringify({ chain_id: id, chain_seq: i, prev_hash: prev, n: i });
    const hash = rowHash(prev, canonical);
    rows.push({
      chain_id: id,
      chain_seq: i,
      prev_hash: prev,
      hash,
      tbl: 'security_events',
      seq: i,
      event_id: `e${i}`,
      canonical,
    });
    prev = hash;
  }
  return rows;
}

/** Answers the verifier's three queries from memory. */
function fakeDb(
  rows: Row[],
  checkpoints: Array<Record<string, unknown>> = [],
  heads?: Array<Record<string, unknown>>,
): Query {
  const lastOf = (id: string) => rows.filter((r) => r.chain_id === id).at(-1);
  const headRows =
    heads ??
    [...new Set(rows.map((r) => r.chain_id))].map((id) => ({
      chain_id: id,
      seq: lastOf(id)!.chain_seq,
      hash: lastOf(id)!.hash,
    }));
  return async (text, params) => {
    if (text.includes('FROM retention_checkpoints ORDER BY')) return checkpoints;
    if (text.startsWith('SELECT chain_id, seq, hash FROM chain_heads')) return headRows;
    const [chainId, seq] = params as [string, number];
    return rows
      .filter((r) => r.chain_id > chainId || (r.chain_id === chainId && r.chain_seq > seq))
      .sort((a, b) => (a.chain_id === b.chain_id ? a.chain_seq - b.chain_seq : a.chain_id < b.chain_id ? -1 : 1));
  };
}

describe('verifyChains', () => {
  it('accepts intact chains', async () => {
    expect(await verifyChains(fakeDb([...chain('a', 5), ...chain('b', 3)]))).toEqual({ ok: true, rows: 8, chains: 2 });
  });

  it('names an edited row', async () => {
    const rows = chain('a', 5);
    rows[2]!.canonical = rows[2]!.canonical.replace('"n":3', '"n":33');
    const result = await verifyChains(fakeDb(rows));
    expect(result).toMatchObject({
      ok: false,
      bad: { chainSeq: 3, eventId: 'e3', problem: expect.stringMatching(/hash does not match/) },
    });
  });

  it('names a gap, and a missing tail against the head', async () => {
    const rows = chain('a', 5);
    const gap = await verifyChains(fakeDb(rows.filter((r) => r.chain_seq !== 2)));
    expect(gap).toMatchObject({ ok: false, bad: { chainSeq: 3, problem: expect.stringMatching(/rows 2\.\.2/) } });
    const heads = [{ chain_id: 'a', seq: 5, hash: rows[4]!.hash }];
    const tail = await verifyChains(fakeDb(rows.slice(0, 4), [], heads));
    expect(tail).toMatchObject({
      ok: false,
      bad: { table: 'chain_heads', problem: expect.stringMatching(/rows after 4 are missing/) },
    });
  });

  it('bridges removed segments with their checkpoints, adjacent ones included, and nothing else', async () => {
    const rows = chain('a', 8);
    const cp = (from: number, to: number) => ({
      target_chain: 'a',
      from_seq: from,
      to_seq: to,
      segment_prev_hash: rows[from - 1]!.prev_hash,
      segment_end_hash: rows[to - 1]!.hash,
    });
    const kept = rows.filter((r) => r.chain_seq > 4 && r.chain_seq !== 7);
    const heads = [{ chain_id: 'a', seq: 8, hash: rows[7]!.hash }];
    expect(await verifyChains(fakeDb(kept, [cp(1, 2), cp(3, 4), cp(7, 7)], heads))).toMatchObject({
      ok: true,
      rows: 3,
    });
    // A checkpoint that claims a different border does not bridge.
    const forged = { ...cp(7, 7), segment_end_hash: 'f'.repeat(64) };
    expect(await verifyChains(fakeDb(kept, [cp(1, 2), cp(3, 4), forged], heads))).toMatchObject({
      ok: false,
      bad: { chainSeq: 8 },
    });
    // A removed tail is accounted for by its checkpoint.
    expect(await verifyChains(fakeDb(rows.slice(0, 6), [cp(7, 8)], heads))).toMatchObject({ ok: true });
  });
});
