import { Controller, Get, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import {
  EVIDENCE_PAGE_MAX,
  SECURITY_LOGS_PAGE_MAX,
  contracts,
  csvLine,
  evidenceQuerySchema,
  securityLogsQuerySchema,
  type EvidenceQuery,
  type EvidenceRecord,
  type ResolvedKey,
  type SecurityLog,
  type SecurityLogsQuery,
  type SecurityLogsResponse,
  evidenceDocumentSchema,
  evidenceRecordSchema,
} from '@vigil/proto';
import type { Response } from 'express';
import { AnyPlan, Credentials } from '../credentials/credentials.js';
import { CurrentClient, ZodQuery } from '../http/route-params.js';
import { Answers } from '../http/answers.js';

const on = contracts.audit;
const DAY_MS = 86_400_000;
const LOG_COLUMNS = [
  'id',
  'event',
  'timestamp',
  'ip',
  'endpoint',
  'method',
  'admin_email',
  'client_name',
  'client_id',
  'user_id',
  'request_id',
  'reason',
  'hash',
];
const EVIDENCE_COLUMNS = [
  'kind',
  'chain',
  'seq',
  'occurred_at',
  'actor_id',
  'screening_id',
  'searched_name',
  'searched_email',
  'status',
  'score',
  'matched_name',
  'source_list',
  'list_versions',
  'decision',
  'action',
  'details',
  'prev_hash',
  'hash',
];
type EvidenceHead = { clientId: string; chain: string; from: string | null; to: string | null };

/** How each evidence format opens, writes a record (`first` of the download or not) and closes. */
const EVIDENCE_FORMATS: Readonly<
  Record<
    EvidenceQuery['format'],
    {
      contentType: string;
      head: (h: EvidenceHead) => string;
      record: (r: EvidenceRecord, first: boolean) => string;
      tail: string;
    }
  >
> = {
  json: {
    contentType: 'application/json; charset=utf-8',
    head: (h) => `${JSON.stringify(h).slice(0, -1)},"records":[`,
    record: (r, first) => `${first ? '' : ','}${JSON.stringify(r)}`,
    tail: ']}',
  },
  ndjson: {
    contentType: 'application/x-ndjson; charset=utf-8',
    head: () => '',
    record: (r) => `${JSON.stringify(r)}\n`,
    tail: '',
  },
  csv: {
    contentType: 'text/csv; charset=utf-8',
    head: () => csvLine(EVIDENCE_COLUMNS),
    record: (r) => csvLine(evidenceRow(r)),
    tail: '',
  },
};

const exportQuerySchema = securityLogsQuerySchema.pick({ eventType: true, timeFilter: true, searchTerm: true });

/** The panel's filters as the audit service takes them (eventType=all means every type). */
function filters(query: Pick<SecurityLogsQuery, 'eventType' | 'timeFilter' | 'searchTerm'>) {
  return {
    ...(query.eventType && query.eventType !== 'all' ? { eventType: query.eventType } : {}),
    ...(query.timeFilter ? { timeFilter: query.timeFilter } : {}),
    ...(query.searchTerm ? { searchTerm: query.searchTerm } : {}),
  };
}

function logRow(log: SecurityLog): unknown[] {
  const d = log.details;
  return [
    log.id,
    log.event,
    log.timestamp,
    d.ip,
    d.endpoint,
    d.method,
    d.adminEmail,
    d.clientName,
    d.clientId,
    d.userId,
    d.requestId,
    d.reason,
    log.hash,
  ];
}

function evidenceRow(r: EvidenceRecord): unknown[] {
  const versions = r.listVersions?.map((v) => `${v.source}:${v.versionId}`).join(';') ?? null;
  return [
    r.kind,
    r.chain,
    r.seq,
    r.occurredAt,
    r.actorId,
    r.screeningId,
    r.searchedName,
    r.searchedEmail,
    r.status,
    r.score,
    r.matchedName,
    r.sourceList,
    versions,
    r.decision,
    r.action,
    r.details,
    r.prevHash,
    r.hash,
  ];
}

/**
 * The audit trail's HTTP face: the admin console's security log and its CSV export (admins
 * only), and a client's own screening evidence (its key and a session of its own users).
 */
@Controller('api/client')
export class AuditController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('admin/logs')
  @Answers(on.securityLogs, { summary: 'Security log, one page' })
  @Credentials('admin')
  logs(@ZodQuery(securityLogsQuerySchema) query: SecurityLogsQuery): Promise<SecurityLogsResponse> {
    return this.rpc.request(on.securityLogs, { ...filters(query), limit: query.limit, offset: query.offset });
  }

  /** The same filters as the panel, every matching row (newest recorded first), as CSV. */
  @Get('admin/logs/export')
  @Answers({ mediaType: 'text/csv' }, { summary: 'Security log as a CSV download' })
  @Credentials('admin')
  async exportLogs(
    @ZodQuery(exportQuerySchema) query: Pick<SecurityLogsQuery, 'eventType' | 'timeFilter' | 'searchTerm'>,
    @Res() res: Response,
  ): Promise<void> {
    const request = { ...filters(query), limit: SECURITY_LOGS_PAGE_MAX };
    // The first page is fetched before anything is sent, so a failure is still a problem answer.
    let page = await this.rpc.request(on.securityLogs, request);
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader(
      'content-disposition',
      `attachment; filename="security-logs-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    res.setHeader('cache-control', 'no-store');
    res.write(csvLine(LOG_COLUMNS));
    try {
      for (;;) {
        res.write(page.logs.map((log) => csvLine(logRow(log))).join(''));
        if (page.logs.length < request.limit) break;
        const beforeSeq = page.logs[page.logs.length - 1]!.seq;
        page = await this.rpc.request(on.securityLogs, { ...request, beforeSeq });
      }
      res.end();
    } catch (error) {
      // Headers are gone: cut the download short rather than end it as if it were complete.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * The client's own evidence: every screening with the list versions it was screened against
   * and its decision, every review decision and every admin action on the client, with their
   * place in the client's hash chain. The client is the one the verified key names; the key alone
   * opens it, so a bank's archiving job can fetch its evidence without a person's session.
   */
  @Get('audit/screenings')
  @Answers(evidenceDocumentSchema, {
    summary: "The client's screening evidence (JSON, NDJSON or CSV)",
    description:
      'Every record of the window, whatever its size, streamed as it is read (page by page from the audit ' +
      'service): `format=json` one document, `format=ndjson` one record per line, `format=csv` one row per record. ' +
      'A download cut short by a failure ends without its closing bracket (json) or mid-line, never as if complete.',
    also: [{ mediaType: 'application/x-ndjson', schema: evidenceRecordSchema }, { mediaType: 'text/csv' }],
  })
  @Credentials('key-or-session')
  // Every plan: a client's evidence of its own screenings is not a dashboard feature.
  @AnyPlan()
  async evidence(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(evidenceQuerySchema) query: EvidenceQuery,
    @Res() res: Response,
  ): Promise<void> {
    const from = query.from ? new Date(query.from).toISOString() : undefined;
    // A bare date includes its whole day; an instant includes itself.
    const to = query.to
      ? new Date(Date.parse(query.to) + (query.to.length === 10 ? DAY_MS : 1)).toISOString()
      : undefined;
    const request = {
      clientId: client.clientId,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      limit: EVIDENCE_PAGE_MAX,
    };
    // The first page is fetched before anything is sent, so a failure is still a problem answer.
    let page = await this.rpc.request(on.evidence, { ...request, afterSeq: 0 });
    const format = EVIDENCE_FORMATS[query.format];
    res.status(200);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-type', format.contentType);
    res.setHeader(
      'content-disposition',
      `attachment; filename="screening-evidence-${new Date().toISOString().slice(0, 10)}.${query.format}"`,
    );
    res.write(format.head({ clientId: client.clientId, chain: page.chain, from: from ?? null, to: to ?? null }));
    let written = 0;
    try {
      for (;;) {
        const text = page.records.map((record) => format.record(record, written++ === 0)).join('');
        // Paced by the reader: the next page is asked for once this one has left.
        if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
        if (page.nextAfterSeq === null) break;
        page = await this.rpc.request(on.evidence, { ...request, afterSeq: page.nextAfterSeq });
      }
      res.end(format.tail);
    } catch (error) {
      // Headers are gone: cut the download short rather than end it as if it were complete.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
