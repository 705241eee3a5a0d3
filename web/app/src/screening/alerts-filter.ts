import type { SanctionAlert } from '@vigil/proto';

/**
 * The Alerts page's filters, applied to the alerts loaded (the newest 500): the spec's All Alerts /
 * Blocked buttons, and a search, review state, confidence band and date range to find one alert
 * among many. Every alert is a blocked screening (spec §4), so the two buttons count alike.
 */
export type AlertFilters = {
  search: string;
  reviewed: 'any' | 'unreviewed' | 'reviewed';
  confidence: string;
  /** YYYY-MM-DD, inclusive, in the viewer's time zone; '' for no bound. */
  from: string;
  to: string;
};

export const NO_ALERT_FILTERS: AlertFilters = { search: '', reviewed: 'any', confidence: '', from: '', to: '' };

/** The viewer's calendar day of an instant, as YYYY-MM-DD. */
function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function filterAlerts(alerts: readonly SanctionAlert[], filters: AlertFilters): SanctionAlert[] {
  const needle = filters.search.trim().toLocaleLowerCase();
  return alerts.filter((alert) => {
    if (needle) {
      const haystack = [alert.full_name, alert.email, alert.matched_name, alert.match_reason]
        .filter(Boolean)
        .join(' ')
        .toLocaleLowerCase();
      if (!haystack.includes(needle)) return false;
    }
    if (filters.reviewed === 'reviewed' && !alert.reviewed) return false;
    if (filters.reviewed === 'unreviewed' && alert.reviewed) return false;
    if (filters.confidence && alert.confidence !== filters.confidence) return false;
    const day = localDay(alert.triggered_at);
    if (filters.from && day < filters.from) return false;
    if (filters.to && day > filters.to) return false;
    return true;
  });
}

export function hasAlertFilters(filters: AlertFilters): boolean {
  return (Object.keys(NO_ALERT_FILTERS) as (keyof AlertFilters)[]).some((k) => filters[k] !== NO_ALERT_FILTERS[k]);
}
