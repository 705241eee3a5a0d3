import type { EntityMatch } from '@vigil/matching';
import type { EngineMatch } from './candidate-index.js';

/** The matching core's result in the engine-neutral shape. */
export function fromEntityMatch(source: string, m: EntityMatch): EngineMatch {
  return {
    source,
    entity: m.entity,
    score: m.score,
    matchedOn: 'name',
    matchedName: m.matchedName,
    matchedStrength: m.matchedStrength,
    nameScore: m.nameScore,
    queryScheme: m.queryScheme,
    listScheme: m.listScheme,
    tokens: m.tokens.map((t) => ({ query: [...t.query], list: [...t.list], method: t.method, score: t.score, weight: t.weight })),
    unmatchedList: [...m.unmatchedList],
    qualifiers: m.qualifiers.map((q) => ({ qualifier: q.qualifier, effect: q.effect, detail: q.detail })),
  };
}
