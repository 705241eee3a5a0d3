import { explainMatch } from '../explain.js';
import type { EntityMatch } from '../match/score-entity.js';

/** FNV-1a, twice with different offsets: 16 hex digits, enough to tell outputs apart; pure, so the fixture maker and the test share it. */
export function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
    b = (b ^ (b >>> 13)) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** Everything screen() returns for one query that a caller can see, explanations included, as one string. */
export function canonicalOutput(matches: readonly EntityMatch[]): string {
  return JSON.stringify(
    matches.map((m, i) => ({
      id: `${m.entity.listId}:${m.entity.sourceId}`,
      score: m.score,
      status: m.status,
      matchedName: m.matchedName,
      nameIndex: m.nameIndex,
      queryScheme: m.queryScheme,
      listScheme: m.listScheme,
      nameScore: m.nameScore,
      tokens: m.tokens,
      unmatchedList: m.unmatchedList,
      qualifiers: m.qualifiers,
      explanation: explainMatch(m, i + 1),
    })),
  );
}
