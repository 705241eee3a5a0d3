import { Injectable } from '@nestjs/common';
import {
  EVIDENCE_PAGE_BYTES,
  type EvidencePageResponse,
  type EvidenceRecord,
  type ParsedEvidencePageRequest,
} from '@vigil/proto';
import { Database } from '@vigil/platform';
import { clientChain } from '../trail/audit-records.js';

type Row = {
  kind: EvidenceRecord['kind'];
  chain_seq: string;
  occurred_at: Date;
  row: Record<string, unknown>;
  prev_hash: string;
  hash: string;
  canonical: string;
};

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * A client's evidence: its own chain ("client:<id>") and nothing else, in chain order, each
 * record with the exact text its hash covers so an examiner can recompute the chain. A page ends
 * at `limit` records or EVIDENCE_PAGE_BYTES of them, whichever comes first, so it fits one reply.
 */
@Injectable()
export class EvidenceRepository {
  constructor(private readonly db: Database) {}

  async page(request: ParsedEvidencePageRequest): Promise<EvidencePageResponse> {
    const chain = clientChain(request.clientId);
    const part = (kind: EvidenceRecord['kind'], table: string) =>
      `SELECT '${kind}' AS kind, chain_seq, occurred_at, to_jsonb(t) AS row, prev_hash, hash, (to_jsonb(t) - 'hash')::text AS canonical
         FROM ${table} t
        WHERE chain_id = $1 AND chain_seq > $2
          AND ($3::timestamptz IS NULL OR occurred_at >= $3) AND ($4::timestamptz IS NULL OR occurred_at < $4)`;
    const rows: Row[] = await this.db.transaction(async (tx) => {
      // The canonical text is the one the trigger hashed, which was written in UTC.
      await tx.query(`SET LOCAL "TimeZone" = 'UTC'`);
      return tx.query(
        `${part('screening', 'screening_events')} UNION ALL ${part('review_decision', 'review_decisions')}
         UNION ALL ${part('admin_action', 'admin_actions')}
         ORDER BY chain_seq LIMIT $5`,
        [chain, request.afterSeq, request.from ?? null, request.to ?? null, request.limit],
      );
    });
    const records: EvidenceRecord[] = [];
    let bytes = 0;
    for (const row of rows) {
      const record = toRecord(chain, row);
      bytes += Buffer.byteLength(JSON.stringify(record));
      // Always one record, however large: the export must move on.
      if (records.length > 0 && bytes > EVIDENCE_PAGE_BYTES) break;
      records.push(record);
    }
    const more = records.length < rows.length || rows.length === request.limit;
    return { chain, records, nextAfterSeq: more ? records[records.length - 1]!.seq : null };
  }
}

function toRecord(chain: string, r: Row): EvidenceRecord {
  const row = r.row;
  return {
    kind: r.kind,
    chain,
    seq: Number(r.chain_seq),
    occurredAt: r.occurred_at.toISOString(),
    actorId: str(row.actor_id),
    screeningId: str(row.screening_id ?? row.screening_log_id),
    searchedName: str(row.searched_name),
    searchedEmail: str(row.searched_email),
    status: str(row.status),
    score: row.score === undefined || row.score === null ? null : Number(row.score),
    matchedName: str(row.matched_name),
    sourceList: str(row.source_list),
    listVersions: (row.list_versions as EvidenceRecord['listVersions']) ?? null,
    decision: str(row.decision),
    action: str(row.action),
    details:
      r.kind === 'admin_action'
        ? ((row.details as Record<string, unknown>) ?? null)
        : r.kind === 'review_decision'
          ? { reviewId: row.review_id }
          : null,
    prevHash: r.prev_hash,
    hash: r.hash,
    canonical: r.canonical,
  };
}
