import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  EVIDENCE_PAGE_MAX,
  SECURITY_EVENT_TYPES,
  SECURITY_LOG_TIME_FILTERS,
  SECURITY_LOGS_PAGE_MAX,
  csvLine,
  securityLogsRequestSchema,
  subjects,
  type EvidencePageResponse,
  type EvidenceRecord,
  type SecurityLog,
  type SecurityLogsResponse,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { Credentials } from '../credentials/credentials.js';
import { typedQuery } from '../http/query.js';
import { clientOf } from '../screening-api/screening-api.controller.js';

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

/** YYYY-MM-DD or an ISO 8601 instant with its offset. */
const dateOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const evidenceQuerySchema = z.object({
  from: dateOrInstant.optional(),
  to: dateOrInstant.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});

function logsQuery(query: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const typed = typedQuery(query, {
    eventType: 'string',
    timeFilter: 'string',
    searchTerm: 'string',
    limit: 'number',
    offset: 'number',
  });
  // The panel sends eventType=all (or nothing) for every type.
  if (typed.eventType === 'all') delete typed.eventType;
  return parseMessage(securityLogsRequestSchema, { ...typed, ...extra }, 'query');
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
  @Credentials('admin')
  @ApiQuery({ name: 'eventType', required: false, enum: ['all', ...SECURITY_EVENT_TYPES] })
  @ApiQuery({ name: 'timeFilter', required: false, enum: SECURITY_LOG_TIME_FILTERS })
  @ApiQuery({ name: 'searchTerm', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 1000, default 100.' })
  @ApiQuery({ name: 'offset', required: false })
  logs(@Query() query: Record<string, unknown>): Promise<SecurityLogsResponse> {
    return this.rpc.request(subjects.audit.securityLogs, logsQuery(query));
  }

  /** The same filters as the panel, every matching row (newest recorded first), as CSV. */
  @Get('admin/logs/export')
  @Credentials('admin')
  @ApiQuery({ name: 'eventType', required: false, enum: ['all', ...SECURITY_EVENT_TYPES] })
  @ApiQuery({ name: 'timeFilter', required: false, enum: SECURITY_LOG_TIME_FILTERS })
  @ApiQuery({ name: 'searchTerm', required: false })
  async exportLogs(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const request = logsQuery({ ...query, limit: undefined, offset: undefined }, { limit: SECURITY_LOGS_PAGE_MAX });
    // The first page is fetched before anything is sent, so a failure is still a problem answer.
    let page = await this.rpc.request<SecurityLogsResponse>(subjects.audit.securityLogs, request);
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
        page = await this.rpc.request<SecurityLogsResponse>(subjects.audit.securityLogs, { ...request, beforeSeq });
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
   * place in the client's hash chain. `from` and `to` are inclusive dates or instants.
   */
  @Get('audit/screenings')
  @Credentials('dashboard')
  @ApiQuery({ name: 'from', required: false, description: 'YYYY-MM-DD or an ISO 8601 instant; inclusive.' })
  @ApiQuery({ name: 'to', required: false, description: 'YYYY-MM-DD (whole day) or an ISO 8601 instant; inclusive.' })
  @ApiQuery({ name: 'format', required: false, enum: ['json', 'csv'] })
  async evidence(@Req() req: Request, @Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const parsed = parseMessage(
      evidenceQuerySchema,
      typedQuery(query, { from: 'string', to: 'string', format: 'string' }),
      'query',
    );
    const clientId = clientOf(req).clientId;
    const from = parsed.from ? new Date(parsed.from).toISOString() : undefined;
    const to = parsed.to
      ? new Date(Date.parse(parsed.to) + (parsed.to.length === 10 ? DAY_MS : 1)).toISOString()
      : undefined;
    const request = { clientId, ...(from ? { from } : {}), ...(to ? { to } : {}), limit: EVIDENCE_PAGE_MAX };
    let page = await this.rpc.request<EvidencePageResponse>(subjects.audit.evidence, { ...request, afterSeq: 0 });
    const stamp = new Date().toISOString().slice(0, 10);
    res.status(200);
    res.setHeader('cache-control', 'no-store');
    const csv = parsed.format === 'csv';
    res.setHeader('content-type', csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="screening-evidence-${stamp}.${parsed.format}"`);
    if (csv) res.write(csvLine(EVIDENCE_COLUMNS));
    else
      res.write(
        `{"clientId":${JSON.stringify(clientId)},"chain":${JSON.stringify(page.chain)},"from":${JSON.stringify(from ?? null)},"to":${JSON.stringify(to ?? null)},"records":[`,
      );
    let first = true;
    try {
      for (;;) {
        if (csv) res.write(page.records.map((r) => csvLine(evidenceRow(r))).join(''));
        else
          for (const record of page.records) {
            res.write(`${first ? '' : ','}${JSON.stringify(record)}`);
            first = false;
          }
        if (page.nextAfterSeq === null) break;
        page = await this.rpc.request<EvidencePageResponse>(subjects.audit.evidence, {
          ...request,
          afterSeq: page.nextAfterSeq,
        });
      }
      res.end(csv ? '' : ']}');
    } catch (error) {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
