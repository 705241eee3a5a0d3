import { Injectable } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  DAILY_USAGE_MAX_DAYS,
  SCREENING_LOGS_PAGE_MAX,
  SCREENING_LOG_CSV_COLUMNS,
  contracts,
  csvLine,
  screenedByLabel,
  type DatasetsResponse,
  type ReportKind,
  type ResolvedKey,
  type ScreeningLog,
  type UsageHistoryResponse,
} from '@vigil/proto';
import { Quotas } from '../quotas/quotas.service.js';
import { ScreeningApi } from '../screening-api/screening-api.service.js';

const CHART_DAYS = 30;
/** One list page as the screening service serves it (DATASET_PAGE_MAX). */
const LIST_PAGE = 2_000;

export type ReportFile = { fileName: string; contentType: string; body: AsyncGenerator<string> };

const logCsvRow = (log: ScreeningLog) =>
  csvLine([
    log.id,
    log.searched_name ?? log.searched_email ?? '',
    log.match_found,
    log.sanctioned_entity_id ?? '',
    log.source_list ?? '',
    log.score,
    log.tier,
    log.is_alert,
    log.createdAt,
    screenedByLabel(log.screened_by),
  ]);

/**
 * The dashboard's charts and its Downloads & Reports files. Files are written here, page by
 * page from the screening service, so a client with a year of screenings downloads one stream
 * and the browser never assembles it.
 */
@Injectable()
export class DashboardReports {
  constructor(
    private readonly rpc: RpcClient,
    private readonly quotas: Quotas,
    private readonly screening: ScreeningApi,
  ) {}

  async usageHistory(client: ResolvedKey): Promise<UsageHistoryResponse> {
    const [daily, status] = await Promise.all([
      this.rpc.request(contracts.screening.dailyUsage, {
        clientId: client.clientId,
        days: Math.min(CHART_DAYS, DAILY_USAGE_MAX_DAYS),
      }),
      this.quotas.status(client),
    ]);
    return {
      days: daily.days,
      quota: status.quota,
      usage: status.usage,
      periodStart: status.period,
      periodEnd: status.periodEnd,
    };
  }

  /** Spec §9 file names: `{kind}-{date}.{json|csv}`. */
  report(client: ResolvedKey, kind: ReportKind, now = new Date()): ReportFile {
    const date = now.toISOString().slice(0, 10);
    switch (kind) {
      case 'screening-logs':
        return {
          fileName: `screening-logs-${date}.json`,
          contentType: 'application/json; charset=utf-8',
          body: jsonArray(this.logs(client.clientId, now)),
        };
      case 'sanction-alerts':
        return {
          fileName: `sanction-alerts-${date}.json`,
          contentType: 'application/json; charset=utf-8',
          body: jsonArray(this.alerts(client.clientId)),
        };
      case 'sanctions-export':
        return {
          fileName: `sanctions-export-${date}.csv`,
          contentType: 'text/csv; charset=utf-8',
          body: this.logsCsv(client.clientId, now),
        };
      case 'sanctions-data':
        return {
          fileName: `sanctions-data-${date}.json`,
          contentType: 'application/json; charset=utf-8',
          body: this.catalogue(client),
        };
    }
  }

  /** Every current entity of one list the client's plan covers, as CSV. */
  list(client: ResolvedKey, source: string, now = new Date()): ReportFile {
    return {
      fileName: `${source.replace(/[^A-Za-z0-9_.-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: this.listCsv(client, source),
    };
  }

  /** The logs up to `until`, so screenings made during the download do not shift the pages. */
  private async *logs(clientId: string, until: Date): AsyncGenerator<ScreeningLog> {
    for (let offset = 0; ; offset += SCREENING_LOGS_PAGE_MAX) {
      const page = await this.rpc.request(contracts.screening.logs, {
        clientId,
        toDate: until.toISOString(),
        limit: SCREENING_LOGS_PAGE_MAX,
        offset,
      });
      yield* page.logs;
      if (page.logs.length < SCREENING_LOGS_PAGE_MAX) return;
    }
  }

  private async *alerts(clientId: string): AsyncGenerator<unknown> {
    for (let offset = 0; ; offset += SCREENING_LOGS_PAGE_MAX) {
      const page = await this.rpc.request(contracts.screening.alerts, {
        clientId,
        limit: SCREENING_LOGS_PAGE_MAX,
        offset,
      });
      yield* page.alerts;
      if (page.alerts.length < SCREENING_LOGS_PAGE_MAX) return;
    }
  }

  private async *logsCsv(clientId: string, until: Date): AsyncGenerator<string> {
    yield csvLine(SCREENING_LOG_CSV_COLUMNS);
    for await (const log of this.logs(clientId, until)) yield logCsvRow(log);
  }

  private async *catalogue(client: ResolvedKey): AsyncGenerator<string> {
    const { lists } = await this.screening.lists();
    const feeds = new Set<string>(client.feeds);
    yield JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        lists: lists.filter((list) => feeds.has(list.feed)),
      },
      null,
      2,
    );
    yield '\n';
  }

  private async *listCsv(client: ResolvedKey, source: string): AsyncGenerator<string> {
    let cursor: string | null = null;
    do {
      const page: DatasetsResponse = await this.screening.datasets(client, {
        source,
        format: 'csv',
        limit: LIST_PAGE,
        ...(cursor ? { cursor } : {}),
      });
      if (page.csv === undefined) throw new DomainError('NOT_FOUND', `No data found for ${source}.`);
      yield page.csv.endsWith('\n') || page.csv === '' ? page.csv : `${page.csv}\n`;
      cursor = page.nextCursor;
    } while (cursor);
  }
}

async function* jsonArray(items: AsyncGenerator<unknown>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const item of items) {
    yield (first ? '\n' : ',\n') + JSON.stringify(item);
    first = false;
  }
  yield '\n]\n';
}
