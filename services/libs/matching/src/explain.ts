import type { EntityMatch } from './match/score-entity.js';

const METHOD_WORDS: Record<string, string> = {
  exact: 'same word',
  equivalent: 'known variant',
  transliterated: 'same name in another script or spelling',
  phonetic: 'sounds alike',
  fuzzy: 'spelling close',
  initial: 'initial',
  unmatched: 'not on the list name',
  contradicted: 'contradicts',
};

function pct(x: number): string {
  return (x * 100).toFixed(1) + '%';
}

/** A plain-text explanation of one result, for an analyst to read. */
export function explainMatch(match: EntityMatch, rank?: number): string {
  const e = match.entity;
  const lines: string[] = [];
  const head = rank === undefined ? '' : `#${rank} `;
  lines.push(`${head}${match.status.toUpperCase()} ${pct(match.score)}  ${e.listId}:${e.sourceId}  ${e.names[0]?.full ?? ''} (${e.type})`);
  const via = match.matchedName === e.names[0]?.full ? 'primary name' : `${match.matchedStrength} alias`;
  lines.push(`  matched ${via} "${match.matchedName}" (name score ${pct(match.nameScore)}; query read as ${match.queryScheme}, list as ${match.listScheme})`);
  for (const t of match.tokens) {
    const q = t.query.join(' + ');
    const l = t.list.length ? t.list.join(' + ') : '—';
    lines.push(`    ${q.padEnd(18)} → ${l.padEnd(22)} ${t.method.padEnd(14)} score ${t.score.toFixed(2)}  weight ${t.weight.toFixed(2)}  (${METHOD_WORDS[t.method] ?? t.method})`);
  }
  if (match.unmatchedList.length) lines.push(`    list tokens not in the query (cheap): ${match.unmatchedList.join(', ')}`);
  for (const q of match.qualifiers) lines.push(`  ${q.effect >= 0 ? '+' : ''}${q.effect.toFixed(3)} ${q.qualifier}: ${q.detail}`);
  return lines.join('\n');
}
