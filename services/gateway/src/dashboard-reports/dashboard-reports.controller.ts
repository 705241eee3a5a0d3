import { Controller, Get } from '@nestjs/common';
import {
  REPORT_KINDS,
  type ReportKind,
  type ResolvedKey,
  type UsageHistoryResponse,
  usageHistoryResponseSchema,
} from '@vigil/proto';
import { z } from 'zod';
import { Credentials } from '../credentials/credentials.js';
import { CurrentClient, ZodParam } from '../http/route-params.js';
import { DashboardReports, type ReportFile } from './dashboard-reports.service.js';
import { Answers } from '../http/answers.js';

const reportKindSchema = z.enum(REPORT_KINDS);
const listSourceSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be a list source key');

/**
 * The dashboard's charts and Downloads & Reports, for the signed-in user's own client: the
 * session is enough, as on every dashboard route.
 */
/** A report file's JSON: an array of records (screening-logs, sanction-alerts) or the list catalogue (sanctions-data). */
const REPORT_FILE_SCHEMA = z
  .union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())])
  .describe('The report as a JSON file.');

@Controller('api/client')
export class DashboardReportsController {
  constructor(private readonly reports: DashboardReports) {}

  /** The last 30 days: screenings, matches and blocked per UTC day, with the period's usage and quota. */
  @Get('usage-history')
  @Answers(usageHistoryResponseSchema, { summary: 'Screenings per day, last 30 days' })
  @Credentials('dashboard')
  usageHistory(@CurrentClient() client: ResolvedKey): Promise<UsageHistoryResponse> {
    return this.reports.usageHistory(client);
  }

  /** Spec §9 files: screening-logs and sanction-alerts (JSON), sanctions-export (CSV), sanctions-data (JSON). */
  @Get('reports/:kind')
  @Answers(
    { mediaType: 'application/json', schema: REPORT_FILE_SCHEMA },
    {
      summary: 'Download a report',
      description: 'screening-logs, sanction-alerts and sanctions-data are JSON files; sanctions-export is CSV.',
      also: [{ mediaType: 'text/csv' }],
    },
  )
  @Credentials('dashboard')
  report(
    @CurrentClient() client: ResolvedKey,
    @ZodParam('kind', reportKindSchema) kind: ReportKind,
  ): Promise<Response> {
    return stream(this.reports.report(client, kind));
  }

  /** One list's current entities as CSV, every page. */
  @Get('reports/list/:source')
  @Answers({ mediaType: 'text/csv' }, { summary: "Download one list's entities as CSV" })
  @Credentials('dashboard')
  list(@CurrentClient() client: ResolvedKey, @ZodParam('source', listSourceSchema) source: string): Promise<Response> {
    return stream(this.reports.list(client, source));
  }
}

/**
 * Starts the file and waits for its first piece, so a failure before any byte (an unknown list,
 * the screening service down) is still a problem+json answer rather than a broken download.
 */
async function stream(file: ReportFile): Promise<Response> {
  const first = await file.body.next();
  const rest = file.body;
  const body = new ReadableStream<string>({
    start(controller) {
      if (!first.done) controller.enqueue(first.value);
    },
    async pull(controller) {
      const next = await rest.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await rest.return(undefined);
    },
  });
  return new Response(body.pipeThrough(new TextEncoderStream()), {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'cache-control': 'no-store',
    },
  });
}
