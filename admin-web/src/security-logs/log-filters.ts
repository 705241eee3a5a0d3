import type { SECURITY_EVENT_TYPES, SECURITY_LOG_TIME_FILTERS } from '@vigil/proto';

export type EventTypeFilter = 'all' | (typeof SECURITY_EVENT_TYPES)[number];
export type TimeFilter = (typeof SECURITY_LOG_TIME_FILTERS)[number];
export type LogFilters = { eventType: EventTypeFilter; timeFilter: TimeFilter; searchTerm: string };

/** Spec §7: the time filter starts at 24 h. */
export const INITIAL_FILTERS: LogFilters = { eventType: 'all', timeFilter: '24h', searchTerm: '' };

/** Spec §7: a filter change is searched 300 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The query string of both the panel's request and its CSV export: "all" and blanks are left out. */
export function filterParams(filters: LogFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.eventType !== 'all') params.eventType = filters.eventType;
  if (filters.timeFilter !== 'all') params.timeFilter = filters.timeFilter;
  const term = filters.searchTerm.trim();
  if (term !== '') params.searchTerm = term;
  return params;
}
