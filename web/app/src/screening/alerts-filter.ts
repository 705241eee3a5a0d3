import type { SanctionAlertsRequest } from '@vigil/proto';

/**
 * The Alerts page's filters: a name search, review state, confidence band, date range and who ran
 * the screening. The server applies them (and pages), so every alert the client has is reachable
 * and the counts shown are the server's totals, not those of one page loaded in the browser.
 */
export type AlertFilters = {
  search: string;
  reviewed: 'any' | 'unreviewed' | 'reviewed';
  confidence: string;
  /** YYYY-MM-DD, inclusive, in the viewer's time zone; '' for no bound. */
  from: string;
  to: string;
  /** '' (anyone) or a screenedBy filter value (`user:<id>`, `api_key`, `bulk_job`, `monitoring`). */
  screenedBy: string;
};

export const NO_ALERT_FILTERS: AlertFilters = {
  search: '',
  reviewed: 'any',
  confidence: '',
  from: '',
  to: '',
  screenedBy: '',
};

export type AlertsQuery = Omit<SanctionAlertsRequest, 'clientId'>;

/** The instant a calendar day starts (or, `end`, its last millisecond) in the viewer's time zone. */
export function localDayBound(day: string, end = false): string | undefined {
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The query for one page of alerts under `filters` (a search typed is sent as it will be searched). */
export function alertsQuery(filters: AlertFilters, page: number, pageSize: number): AlertsQuery {
  const search = filters.search.trim();
  const from = filters.from ? localDayBound(filters.from) : undefined;
  const to = filters.to ? localDayBound(filters.to, true) : undefined;
  return {
    ...(search ? { searchedName: search } : {}),
    ...(filters.reviewed !== 'any' ? { reviewed: filters.reviewed === 'reviewed' } : {}),
    ...(filters.confidence ? { confidence: filters.confidence as AlertsQuery['confidence'] } : {}),
    ...(from ? { fromDate: from } : {}),
    ...(to ? { toDate: to } : {}),
    ...(filters.screenedBy ? { screenedBy: filters.screenedBy } : {}),
    limit: pageSize,
    offset: page * pageSize,
  };
}

export function hasAlertFilters(filters: AlertFilters): boolean {
  return (Object.keys(NO_ALERT_FILTERS) as (keyof AlertFilters)[]).some((k) => filters[k] !== NO_ALERT_FILTERS[k]);
}
