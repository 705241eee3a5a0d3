import type { Screener } from '../algorithm.js';
import type { ScreeningQuery } from '../match/score-entity.js';

/** One line of `vigil-screen batch` output; the field order is part of the contract. */
export type BatchResultLine = {
  id: unknown;
  results: Array<{ listId: string; sourceId: string; name: string; matchedName: string; score: number; status: string }>;
  error?: string;
};

/** Turns one input line into the query the engine takes; throws on a malformed line. */
export function parseQueryLine(line: string): { id: unknown; query: ScreeningQuery } {
  const raw: unknown = JSON.parse(line);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('a query line must be a JSON object');
  const o = raw as Record<string, unknown>;
  // the evaluation files nest the query; accept both shapes
  const q = o.query && typeof o.query === 'object' ? (o.query as Record<string, unknown>) : o;
  if (typeof q.name !== 'string' || q.name.trim() === '') throw new Error('"name" must be a non-empty string');
  const query: ScreeningQuery = { name: q.name };
  if (typeof q.dob === 'string' && q.dob) query.dob = q.dob;
  if (typeof q.country === 'string' && q.country) query.country = q.country;
  if (typeof q.entityType === 'string' && q.entityType) query.entityType = q.entityType as ScreeningQuery['entityType'];
  return { id: o.id ?? null, query };
}

/** Screens one input line into one output line; never throws. */
export function screenLine(screener: Screener, line: string, limit: number): BatchResultLine {
  let parsed: { id: unknown; query: ScreeningQuery };
  try {
    parsed = parseQueryLine(line);
  } catch (err) {
    let id: unknown = null;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id ?? null;
    } catch {
      id = null;
    }
    return { id, results: [], error: (err as Error).message };
  }
  const results = screener
    .screen(parsed.query, limit)
    .filter((m) => m.score > 0)
    .map((m) => ({
      listId: m.entity.listId,
      sourceId: m.entity.sourceId,
      name: m.entity.names[0]?.full ?? '',
      matchedName: m.matchedName,
      score: m.score,
      status: m.status,
    }));
  return { id: parsed.id, results };
}
