/** How the overview prints its figures; a count the owning service did not give is "Unavailable", never 0. */
export function formatFigure(value: number | null): string {
  return value === null ? 'Unavailable' : new Intl.NumberFormat('en-US').format(value);
}

export function formatRate(perSecond: number): string {
  if (perSecond === 0) return '0/s';
  if (perSecond < 0.01) return '<0.01/s';
  return `${perSecond < 10 ? perSecond.toFixed(2) : Math.round(perSecond)}/s`;
}

export function formatP95(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function formatErrorRate(rate: number): string {
  if (rate === 0) return '0%';
  if (rate < 0.001) return '<0.1%';
  return `${(rate * 100).toFixed(1)}%`;
}

export function formatPercent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}
