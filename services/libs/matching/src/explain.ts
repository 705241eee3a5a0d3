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
  extra: 'beside the whole list name: see extraTokens',
};

const SCRIPT_WORDS: Record<string, string> = {
  Latn: 'latin',
  Cyrl: 'cyrillic',
  Arab: 'arabic',
  Grek: 'greek',
  Hebr: 'hebrew',
  Hani: 'han',
  Kana: 'kana',
  Hang: 'hangul',
  Deva: 'devanagari',
  Other: 'other',
  Common: 'latin',
};

/** v2's name for a transliterated pair: transliteration(han→latin); v1's explanations are frozen as they were. */
function methodLabel(t: EntityMatch['tokens'][number]): string {
  if (t.method === 'transliterated' && t.scripts)
    return `transliteration(${SCRIPT_WORDS[t.scripts[0]]}→${SCRIPT_WORDS[t.scripts[1]]})`;
  return t.method;
}

function pct(x: number): string {
  return (x * 100).toFixed(1) + '%';
}

/** A plain-text explanation of one result, for an analyst to read. */
export function explainMatch(match: EntityMatch, rank?: number): string {
  const e = match.entity;
  const lines: string[] = [];
  const head = rank === undefined ? '' : `#${rank} `;
  lines.push(
    `${head}${match.status.toUpperCase()} ${pct(match.score)}  ${e.listId}:${e.sourceId}  ${e.names[0]?.full ?? ''} (${e.type})`,
  );
  // v3: a name borrowed from a twin record on another list is not one of this record's aliases
  const twin = match.qualifiers.some((q) => q.qualifier === 'twinName');
  const via = twin
    ? "twin record's name"
    : match.matchedName === e.names[0]?.full
      ? 'primary name'
      : `${match.matchedStrength} alias`;
  lines.push(
    `  matched ${via} "${match.matchedName}" (name score ${pct(match.nameScore)}; query read as ${match.queryScheme}, list as ${match.listScheme})`,
  );
  if (match.queryReading) lines.push(`  query "${match.queryReading.written}" read as "${match.queryReading.read}"`);
  for (const t of match.tokens) {
    const q = t.query.join(' + ');
    const l = t.list.length ? t.list.join(' + ') : '—';
    const label = methodLabel(t);
    lines.push(
      `    ${q.padEnd(18)} → ${l.padEnd(22)} ${label.padEnd(label === t.method ? 14 : 28)} score ${t.score.toFixed(2)}  weight ${t.weight.toFixed(2)}  (${METHOD_WORDS[t.method] ?? t.method})`,
    );
  }
  if (match.unmatchedList.length)
    lines.push(`    list tokens not in the query (cheap): ${match.unmatchedList.join(', ')}`);
  for (const q of match.qualifiers)
    lines.push(`  ${q.effect >= 0 ? '+' : ''}${q.effect.toFixed(3)} ${q.qualifier}: ${q.detail}`);
  return lines.join('\n');
}
