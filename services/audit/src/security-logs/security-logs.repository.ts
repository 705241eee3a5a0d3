import { Injectable } from '@nestjs/common';
import type { ParsedSecurityLogsRequest, SecurityLog, SecurityLogsSummary } from '@vigil/proto';
import { Database } from '@vigil/platform';

const HOUR_MS = 3_600_000;
const SINCE_MS: Readonly<Record<ParsedSecurityLogsRequest['timeFilter'], number | null>> = {
  '1h': HOUR_MS,
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
  all: null,
};

type Row = {
  seq: string;
  event_id: string;
  event_type: SecurityLog['event'];
  occurred_at: Date;
  ip: string | null;
  endpoint: string;
  method: string | null;
  admin_email: string | null;
  client_name: string | null;
  client_id: string | null;
  actor_id: string | null;
  request_id: string | null;
  reason: string | null;
  hash: string;
};

/** What the overview's Security Alerts card counts: failures and abuse, not routine admin or client access. */
export const SECURITY_ALERT_TYPES: readonly SecurityLog['event'][] = ['FAILED_AUTH', 'RATE_LIMIT_VIOLATION', 'SUSPICIOUS_ACTIVITY'];

/** `%term%` with LIKE's own wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The security log as the admin console reads it: filters, a page and the panel's counts. */
@Injectable()
export class SecurityLogsRepository {
  constructor(private readonly db: Database) {}

  /** Security events that call for attention (not routine access) since `since`. */
  async alertCount(since: Date): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM security_events WHERE occurred_at >= $1 AND event_type = ANY($2::text[])`,
      [since, SECURITY_ALERT_TYPES],
    );
    return rows[0]?.n ?? 0;
  }

  async page(
    request: ParsedSecurityLogsRequest,
  ): Promise<{ logs: SecurityLog[]; total: number; summary: SecurityLogsSummary }> {
    const since = SINCE_MS[request.timeFilter];
    const params = [
      since === null ? null : new Date(Date.now() - since),
      request.searchTerm ? containing(request.searchTerm) : null,
      request.eventType ?? null,
      request.beforeSeq ?? null,
    ];
    // $1 since, $2 search, $3 event type, $4 export cursor.
    const common = `($1::timestamptz IS NULL OR occurred_at >= $1)
      AND ($2::text IS NULL OR endpoint ILIKE $2 OR ip ILIKE $2 OR admin_email ILIKE $2 OR client_name ILIKE $2
           OR event_type ILIKE $2 OR reason ILIKE $2 OR request_id ILIKE $2 OR client_id ILIKE $2)`;
    const filtered = `${common} AND ($3::text IS NULL OR event_type = $3) AND ($4::bigint IS NULL OR seq < $4)`;
    // Exporting pages by the recording order (stable while new rows arrive); the panel by time.
    const order = request.beforeSeq !== undefined ? 'seq DESC' : 'occurred_at DESC, seq DESC';
    const offset = request.beforeSeq !== undefined ? 0 : request.offset;
    // One snapshot for the page, its total and the summary: events keep arriving (each read of the
    // panel is itself one), and three reads at three moments could answer a total the summary denies.
    const [rows, [count], counts] = await this.db.transaction(
      (tx) =>
        Promise.all([
          tx.query(`SELECT * FROM security_events WHERE ${filtered} ORDER BY ${order} LIMIT $5 OFFSET $6`, [
            ...params,
            request.limit,
            offset,
          ]) as Promise<Row[]>,
          tx.query(`SELECT count(*)::int AS n FROM security_events WHERE ${filtered}`, params) as Promise<
            Array<{ n: number }>
          >,
          tx.query(
            `SELECT event_type, count(*)::int AS n FROM security_events WHERE ${common} GROUP BY event_type`,
            params.slice(0, 2),
          ) as Promise<Array<{ event_type: SecurityLog['event']; n: number }>>,
        ]),
      'REPEATABLE READ',
    );
    const by = (type: SecurityLog['event']) => counts.find((c) => c.event_type === type)?.n ?? 0;
    return {
      logs: rows.map(toLog),
      total: count!.n,
      summary: {
        total: counts.reduce((sum, c) => sum + c.n, 0),
        failedAuth: by('FAILED_AUTH'),
        adminAccess: by('ADMIN_ACCESS'),
        clientAccess: by('CLIENT_ACCESS'),
        suspicious: by('SUSPICIOUS_ACTIVITY'),
        rateLimited: by('RATE_LIMIT_VIOLATION'),
      },
    };
  }
}

function toLog(row: Row): SecurityLog {
  return {
    id: row.event_id,
    event: row.event_type,
    timestamp: row.occurred_at.toISOString(),
    details: {
      ip: row.ip,
      endpoint: row.endpoint,
      method: row.method,
      adminEmail: row.admin_email,
      clientName: row.client_name,
      clientId: row.client_id,
      userId: row.actor_id?.startsWith('client:') ? null : row.actor_id,
      requestId: row.request_id,
      reason: row.reason,
    },
    seq: Number(row.seq),
    hash: row.hash,
  };
}
