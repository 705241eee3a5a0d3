import { alertsQuery, hasAlertFilters, localDayBound, NO_ALERT_FILTERS } from './alerts-filter.js';

describe('alertsQuery', () => {
  it('asks for one page and nothing else without filters', () => {
    expect(alertsQuery(NO_ALERT_FILTERS, 0, 50)).toEqual({ limit: 50, offset: 0 });
    expect(alertsQuery(NO_ALERT_FILTERS, 3, 50)).toEqual({ limit: 50, offset: 150 });
    expect(hasAlertFilters(NO_ALERT_FILTERS)).toBe(false);
  });

  it('sends every filter to the server, dates as the viewer’s whole days', () => {
    const filters = {
      search: '  müller ',
      reviewed: 'unreviewed' as const,
      confidence: 'Exact Match',
      from: '2026-11-20',
      to: '2026-11-21',
      screenedBy: 'api_key',
    };
    expect(alertsQuery(filters, 0, 50)).toEqual({
      searchedName: 'müller',
      reviewed: false,
      confidence: 'Exact Match',
      fromDate: new Date(2026, 10, 20, 0, 0, 0, 0).toISOString(),
      toDate: new Date(2026, 10, 21, 23, 59, 59, 999).toISOString(),
      screenedBy: 'api_key',
      limit: 50,
      offset: 0,
    });
    expect(alertsQuery({ ...NO_ALERT_FILTERS, reviewed: 'reviewed' }, 0, 10)).toMatchObject({ reviewed: true });
    expect(hasAlertFilters({ ...NO_ALERT_FILTERS, screenedBy: 'monitoring' })).toBe(true);
  });

  it('leaves out a day that is not one', () => {
    expect(localDayBound('not-a-day')).toBeUndefined();
    expect(alertsQuery({ ...NO_ALERT_FILTERS, from: 'nope' }, 0, 10)).toEqual({ limit: 10, offset: 0 });
  });
});
