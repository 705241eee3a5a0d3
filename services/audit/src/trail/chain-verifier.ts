import type { Database } from '@vigil/platform';
import { createHash } from 'node:crypto';

/** Anything that runs SQL and answers rows: the platform Database, one of its sessions or a transaction. */
export type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export const CHAINED_TABLES = [
  'security_events',
  'screening_events',
  'review_decisions',
  'admin_actions',
  'retention_checkpoints',
] as const;
export const GENESIS = '0'.repeat(64);
const PAGE = 5_000;

export type BadRow = {
  table: string;
  seq: string;
  eventId: string | null;
  chain: string;
  chainSeq: number;
  problem: string;
};
export type VerifyResult =
  { ok: true; rows: number; chains: number } | { ok: false; rows: number; chains: number; bad: BadRow };

type Checkpoint = { fromSeq: number; toSeq: number; prevHash: string; endHash: string };

export const rowHash = (prevHash: string, canonical: string) =>
  createHash('sha256').update(prevHash).update(canonical).digest('hex');

/**
 * Walks every chain in order and recomputes each row's hash from its predecessor's and the row
 * as it is stored now: a row edited, inserted or removed behind the trigger's back breaks the
 * walk at that row. A gap is accepted only where a retention checkpoint says which segment was
 * removed and what hashes bordered it; each chain must end where its head says it ends.
 * The session must have TimeZone UTC (the canonical text was written in UTC).
 */
export async function verifyChains(query: Query, onProgress?: (rows: number) => void): Promise<VerifyResult> {
  const checkpoints = new Map<string, Checkpoint[]>();
  for (const c of await query(
    'SELECT target_chain, from_seq, to_seq, segment_prev_hash, segment_end_hash FROM retention_checkpoints ORDER BY target_chain, from_seq',
  )) {
    const list = checkpoints.get(String(c.target_chain)) ?? [];
    list.push({
      fromSeq: Number(c.from_seq),
      toSeq: Number(c.to_seq),
      prevHash: String(c.segment_prev_hash),
      endHash: String(c.segment_end_hash),
    });
    checkpoints.set(String(c.target_chain), list);
  }
  const heads = new Map<string, { seq: number; hash: string }>();
  for (const h of await query('SELECT chain_id, seq, hash FROM chain_heads'))
    heads.set(String(h.chain_id), { seq: Number(h.seq), hash: String(h.hash) });

  const union = CHAINED_TABLES.map(
    (table) =>
      `SELECT chain_id, chain_seq, prev_hash, hash, '${table}' AS tbl, seq,
              ${table === 'retention_checkpoints' ? 'NULL::text' : 'event_id::text'} AS event_id, (to_jsonb(t) - 'hash')::text AS canonical
         FROM ${table} t WHERE (chain_id, chain_seq) > ($1, $2)`,
  ).join(' UNION ALL ');
  const sql = `SELECT * FROM (${union}) u ORDER BY chain_id, chain_seq LIMIT ${PAGE}`;

  let rows = 0;
  const seen = new Set<string>();
  let chain: string | null = null;
  let lastSeq = 0;
  let expectedPrev = GENESIS;
  let cursor: [string, number] = ['', 0];

  const bridge = (to: number): string | null => {
    // Rows lastSeq+1 .. to-1 are missing: retention checkpoints must account for exactly those.
    let from = lastSeq + 1;
    let prev = expectedPrev;
    while (from < to) {
      const cp = (checkpoints.get(chain!) ?? []).find((c) => c.fromSeq === from);
      if (!cp || cp.toSeq >= to || cp.prevHash !== prev) return null;
      prev = cp.endHash;
      from = cp.toSeq + 1;
    }
    return prev;
  };
  const finishChain = (): BadRow | null => {
    if (chain === null) return null;
    const head = heads.get(chain);
    if (!head)
      return {
        table: 'chain_heads',
        seq: '-',
        eventId: null,
        chain,
        chainSeq: lastSeq,
        problem: 'the chain has no head',
      };
    if (head.seq === lastSeq && head.hash === expectedPrev) return null;
    if (head.seq > lastSeq) {
      const end = bridge(head.seq + 1);
      if (end === head.hash) return null;
    }
    return {
      table: 'chain_heads',
      seq: '-',
      eventId: null,
      chain,
      chainSeq: lastSeq,
      problem: `the chain ends at ${lastSeq} but its head is at ${head.seq}: rows after ${lastSeq} are missing`,
    };
  };

  for (;;) {
    const page = await query(sql, cursor);
    for (const r of page) {
      const rowChain = String(r.chain_id);
      const chainSeq = Number(r.chain_seq);
      if (rowChain !== chain) {
        const bad = finishChain();
        if (bad) return { ok: false, rows, chains: seen.size, bad };
        chain = rowChain;
        seen.add(chain);
        lastSeq = 0;
        expectedPrev = GENESIS;
      }
      const bad = (problem: string): VerifyResult => ({
        ok: false,
        rows,
        chains: seen.size,
        bad: {
          table: String(r.tbl),
          seq: String(r.seq),
          eventId: r.event_id === null ? null : String(r.event_id),
          chain: rowChain,
          chainSeq,
          problem,
        },
      });
      if (chainSeq !== lastSeq + 1) {
        const end = chainSeq > lastSeq + 1 ? bridge(chainSeq) : null;
        if (end === null)
          return bad(
            `rows ${lastSeq + 1}..${chainSeq - 1} of the chain are missing and no retention checkpoint accounts for them`,
          );
        expectedPrev = end;
      }
      if (r.prev_hash !== expectedPrev) return bad('prev_hash does not match the previous row’s hash');
      if (rowHash(expectedPrev, String(r.canonical)) !== r.hash) return bad('hash does not match the row’s contents');
      expectedPrev = String(r.hash);
      lastSeq = chainSeq;
      rows++;
    }
    onProgress?.(rows);
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    cursor = [String(last.chain_id), Number(last.chain_seq)];
  }
  const bad = finishChain();
  if (bad) return { ok: false, rows, chains: seen.size, bad };
  // A chain whose rows are all gone must be wholly accounted for by checkpoints.
  for (const id of heads.keys()) {
    if (seen.has(id)) continue;
    chain = id;
    lastSeq = 0;
    expectedPrev = GENESIS;
    const missing = finishChain();
    if (missing) return { ok: false, rows, chains: seen.size, bad: missing };
  }
  return { ok: true, rows, chains: heads.size };
}

/**
 * Walks every chain (see verifyChains) as the trail stood at one instant. The walk reads the
 * heads, then the rows page by page; events keep arriving meanwhile, and a row committed after
 * its chain's head was read looked like rows missing after the head: a tamper alarm about
 * nothing. One REPEATABLE READ transaction gives every statement the snapshot of the first;
 * READ ONLY because verifying never writes. Appends are not blocked by it.
 */
export function verifyTrail(db: Database, onProgress?: (rows: number) => void): Promise<VerifyResult> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY');
    return verifyChains((text, params) => tx.query(text, params), onProgress);
  }, 'REPEATABLE READ');
}

export function describeBadRow(bad: BadRow): string {
  const row =
    bad.table === 'chain_heads'
      ? 'chain head'
      : `${bad.table} row seq=${bad.seq}${bad.eventId ? ` (event ${bad.eventId})` : ''}`;
  return `${row}, chain "${bad.chain}" position ${bad.chainSeq}: ${bad.problem}`;
}
