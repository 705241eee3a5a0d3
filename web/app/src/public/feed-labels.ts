/** Spec §9: display names matched on the lowercased identifier, in this order. */
const LABELS: [match: (id: string) => boolean, label: string][] = [
  [(id) => id.includes('eu_sanctions'), 'EU Sanctions List'],
  [(id) => id.includes('us_sanctions'), 'US Sanctions List'],
  [(id) => id.includes('crime'), 'Criminal Records'],
  [(id) => id.includes('gb_coh') || id.includes('disqualified'), 'UK Disqualified Directors'],
  [(id) => id.includes('wanted'), 'Wanted Persons'],
  [(id) => id.includes('peps'), 'PEPs Database'],
  [(id) => id.includes('ofac'), 'OFAC Sanctions'],
  [(id) => id.includes('un_sanctions'), 'UN Sanctions List'],
  [(id) => id.includes('hm_treasury'), 'HM Treasury Sanctions'],
  [(id) => id.includes('eu_consolidated'), 'EU Consolidated List'],
];

function labelOne(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const id = value.trim().toLowerCase();
  const known = LABELS.find(([match]) => match(id));
  if (known) return known[1];
  return id
    .split('_')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/** A source identifier (or a list of them) as people read it; unusable input is "Unknown". */
export function feedLabel(value: unknown): string {
  if (Array.isArray(value)) {
    const labels = value.map(labelOne).filter((label): label is string => label !== null);
    return labels.length > 0 ? labels.join(', ') : 'Unknown';
  }
  return labelOne(value) ?? 'Unknown';
}
