import {
  identifierKey,
  isIdentifierScheme,
  normaliseIdentifierValue,
  SCHEME_LABELS,
  type Entity,
  type Identifier,
  type IdentifierScheme,
  type ListId,
} from '@vigil/lists';
import type { EngineMatch, EngineQualifier } from './candidate-index.js';

// Identifiers as evidence, apart from name matching: an exact identifier index over the lists
// (both engines key it the same way, with `entityIdentifierKeys`), the hit an identifier gives,
// and the evidence a different identifier of the same scheme gives against a name match. The
// name-matching core is not touched: a query without identifiers is answered exactly as before.

/** One identifier a screening asks about, as the engines receive it. */
export type IdentifierQuery = { scheme: IdentifierScheme; value: string; country?: string };

/**
 * How much a conflicting identifier (another passport number, another IMO number) lowers a name
 * match: enough that an exact name with a different document is reviewed rather than blocked,
 * not so much that it is cleared (people hold several passports; lists miss some).
 */
export const IDENTIFIER_CONFLICT_PENALTY = 0.2;

/** Schemes whose numbers are issued per country, so a listed country must agree with the query's. */
const PER_COUNTRY: ReadonlySet<IdentifierScheme> = new Set(['passport', 'national-id', 'tax-id', 'registration']);

/**
 * Schemes one party holds one value of at a time, so another value is evidence of another party.
 * Not wallet addresses: anyone holds many, and a list names only those it found.
 */
const ONE_PER_PARTY: ReadonlySet<IdentifierScheme> = new Set([
  'imo',
  'mmsi',
  'passport',
  'national-id',
  'tax-id',
  'registration',
  'lei',
  'swift-bic',
  'iban',
]);

/** The list as an analyst names it in "SDN-listed ETH address". */
const LIST_LABELS: Readonly<Record<ListId, string>> = {
  'ofac-sdn': 'SDN',
  'ofac-cons': 'OFAC non-SDN',
  'un-sc': 'UN',
  'eu-fsf': 'EU',
  'uk-hmt': 'UK',
  'us-csl': 'CSL',
  'us-bis-dpl': 'BIS DPL',
  opensanctions: 'OpenSanctions',
};

/** The index keys of an entity's identifiers: one per identifier of a screenable scheme. */
export function entityIdentifierKeys(entity: Entity): string[] {
  const keys = new Set<string>();
  for (const i of entity.identifiers) if (isIdentifierScheme(i.type)) keys.add(identifierKey(i.type, i.value));
  return [...keys];
}

export const queryIdentifierKey = (q: IdentifierQuery): string => identifierKey(q.scheme, q.value);

/** The entity's identifiers of the query's scheme that are the query's value (its country agreeing). */
function listedAs(entity: Entity, q: IdentifierQuery): Identifier | undefined {
  const wanted = normaliseIdentifierValue(q.scheme, q.value);
  return entity.identifiers.find(
    (i) =>
      i.type === q.scheme &&
      normaliseIdentifierValue(q.scheme, i.value) === wanted &&
      !(PER_COUNTRY.has(q.scheme) && q.country && i.country && q.country.toUpperCase() !== i.country.toUpperCase()),
  );
}

function describe(entity: Entity, listed: Identifier): string {
  const scheme = listed.type as IdentifierScheme;
  const what = scheme === 'crypto-address' ? `${listed.chain ?? 'digital-currency'} address` : SCHEME_LABELS[scheme];
  const country = listed.country ? ` (${listed.country})` : '';
  return `${LIST_LABELS[entity.listId] ?? entity.listId}-listed ${what} ${listed.value}${country}`;
}

/**
 * The hit an identifier gives: scored 1 (an exact identifier is the strongest evidence a list
 * gives, so it is blocked under any thresholds), explained by what the list says it is. Undefined
 * when the candidate the index returned does not list it (a country disagreeing).
 */
export function identifierMatch(source: string, entity: Entity, q: IdentifierQuery): EngineMatch | undefined {
  const listed = listedAs(entity, q);
  if (!listed) return undefined;
  const primary = entity.names[0];
  return {
    source,
    entity,
    score: 1,
    matchedOn: 'identifier',
    matchedName: primary?.full ?? '',
    matchedStrength: primary?.strength ?? 'primary',
    nameScore: 0,
    queryScheme: q.scheme,
    listScheme: q.scheme,
    tokens: [],
    unmatchedList: [],
    qualifiers: [{ qualifier: 'identifier', effect: 0, detail: describe(entity, listed) }],
  };
}

/**
 * A name match against an entity that lists identifiers of a scheme the query also gives, none of
 * them the query's: evidence the name belongs to someone else, explained and applied as a penalty.
 * Identifier hits and matches on entities without that scheme are left as they are.
 */
export function withIdentifierEvidence(
  matches: EngineMatch[],
  identifiers: readonly IdentifierQuery[] | undefined,
): EngineMatch[] {
  if (!identifiers?.length) return matches;
  return matches.map((m) => {
    if (m.matchedOn !== 'name') return m;
    const conflicts: EngineQualifier[] = [];
    for (const q of identifiers) {
      if (!ONE_PER_PARTY.has(q.scheme)) continue;
      const same = m.entity.identifiers.filter((i) => i.type === q.scheme);
      if (same.length === 0 || listedAs(m.entity, q)) continue;
      const label = SCHEME_LABELS[q.scheme];
      const listed = same.map((i) => i.value + (i.country ? ` (${i.country})` : '')).join(', ');
      conflicts.push({
        qualifier: 'identifier-conflict',
        effect: -IDENTIFIER_CONFLICT_PENALTY,
        detail: `${label} ${normaliseIdentifierValue(q.scheme, q.value)} is not the listed ${label}: ${listed}`,
      });
    }
    if (conflicts.length === 0) return m;
    // One penalty however many schemes disagree: they are one piece of evidence (a different party).
    return {
      ...m,
      score: Math.max(0, m.score - IDENTIFIER_CONFLICT_PENALTY),
      qualifiers: [...m.qualifiers, ...conflicts],
    };
  });
}
