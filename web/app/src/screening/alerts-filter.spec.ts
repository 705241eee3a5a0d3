import type { SanctionAlert } from '@vigil/proto';
import { filterAlerts, hasAlertFilters, NO_ALERT_FILTERS } from './alerts-filter.js';

const alert = (over: Partial<SanctionAlert>): SanctionAlert => ({
  id: over.id ?? 'a',
  client_id: 'c',
  full_name: 'Nicolas Maduro',
  email: null,
  matched_entity_id: 'ofac-sdn:1',
  matched_name: 'MADURO MOROS, Nicolas',
  match_reason: 'name',
  confidence: 'Exact Match',
  risk_score: 1,
  triggered_at: new Date(2026, 10, 20, 12).toISOString(),
  reviewed: false,
  review_outcome: null,
  review: null,
  ...over,
});

const ALERTS = [
  alert({ id: '1' }),
  alert({ id: '2', full_name: 'Viktor Bout', matched_name: 'BOUT, Viktor', confidence: 'High Confidence Match' }),
  alert({
    id: '3',
    full_name: null,
    email: 'x@shell.example',
    reviewed: true,
    triggered_at: new Date(2026, 10, 22, 9).toISOString(),
  }),
];

const ids = (list: SanctionAlert[]) => list.map((a) => a.id);

describe('filterAlerts', () => {
  it('keeps everything without filters', () => {
    expect(ids(filterAlerts(ALERTS, NO_ALERT_FILTERS))).toEqual(['1', '2', '3']);
    expect(hasAlertFilters(NO_ALERT_FILTERS)).toBe(false);
  });

  it('searches the screened name, email and matched name, case aside', () => {
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, search: 'bout' }))).toEqual(['2']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, search: 'SHELL.example' }))).toEqual(['3']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, search: 'moros' }))).toEqual(['1', '3']);
  });

  it('filters by review state, confidence and an inclusive date range', () => {
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, reviewed: 'reviewed' }))).toEqual(['3']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, reviewed: 'unreviewed' }))).toEqual(['1', '2']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, confidence: 'High Confidence Match' }))).toEqual(['2']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, from: '2026-11-21' }))).toEqual(['3']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, to: '2026-11-20' }))).toEqual(['1', '2']);
    expect(ids(filterAlerts(ALERTS, { ...NO_ALERT_FILTERS, from: '2026-11-20', to: '2026-11-20' }))).toEqual([
      '1',
      '2',
    ]);
  });
});
