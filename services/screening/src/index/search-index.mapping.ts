import type { Entity } from '@vigil/lists';
import { analyzeName, isLooseScript, looseKey, nameFeatures, trigrams, type MatchingConfig } from '@vigil/matching';
import { entityEmails, entityId } from './candidate-index.js';
import { entityIdentifierKeys } from './identifier-evidence.js';

// The index design for screening partitions, one for both search clusters (Elasticsearch and
// OpenSearch take the same template, documents and queries). The retrieval fields hold the
// features @vigil/matching computes (normalised tokens, Double Metaphone keys, consonant
// skeletons, joined neighbours, character trigrams), so the cluster needs no analysis plugin and
// retrieves by the same evidence the in-process index uses. One index per source and list
// version (`<prefix>-<source>-v<version>`), behind an alias per source.

export function indexTemplate(prefix: string) {
  return {
    name: `${prefix}-entities`,
    index_patterns: [`${prefix}-*`],
    priority: 200,
    template: {
      settings: {
        number_of_shards: 1,
        number_of_replicas: 0,
        // Matching features are exact keywords; nothing to analyse.
        'index.max_result_window': 10_000,
      },
      mappings: {
        dynamic: 'strict' as const,
        properties: {
          id: { type: 'keyword' as const },
          source: { type: 'keyword' as const },
          feed: { type: 'keyword' as const },
          source_id: { type: 'keyword' as const },
          entity_type: { type: 'keyword' as const },
          version_id: { type: 'long' as const },
          primary_name: { type: 'text' as const },
          name_terms: { type: 'keyword' as const },
          name_joined: { type: 'keyword' as const },
          name_phonetic: { type: 'keyword' as const },
          name_skeletons: { type: 'keyword' as const },
          name_trigrams: { type: 'keyword' as const },
          name_loose: { type: 'keyword' as const },
          emails: { type: 'keyword' as const },
          identifiers: { type: 'keyword' as const },
          // Kept for scoring with @vigil/matching; not searched.
          entity: { type: 'object' as const, enabled: false },
        },
      },
    },
  };
}

export type IndexTemplate = ReturnType<typeof indexTemplate>;

export type EntityDocument = {
  id: string;
  source: string;
  feed: string;
  source_id: string;
  entity_type: string;
  version_id: number;
  primary_name: string;
  name_terms: string[];
  name_joined: string[];
  name_phonetic: string[];
  name_skeletons: string[];
  name_trigrams: string[];
  name_loose: string[];
  emails: string[];
  /** `scheme:normalised value` of each screenable identifier, for exact lookups. */
  identifiers: string[];
  entity: Entity;
};

export function entityDocument(source: string, feed: string, versionId: number, entity: Entity): EntityDocument {
  const terms = new Set<string>();
  const joined = new Set<string>();
  const phonetic = new Set<string>();
  const skeletons = new Set<string>();
  const grams = new Set<string>();
  for (const name of entity.names) {
    if (!name.full || !name.full.trim()) continue;
    for (const form of nameFeatures(name.full, entity.type).forms) {
      form.terms.forEach((t) => terms.add(t));
      form.joined.forEach((t) => joined.add(t));
      form.phonetic.forEach((t) => phonetic.add(t));
      form.skeletons.forEach((t) => skeletons.add(t));
      form.trigrams.forEach((t) => grams.add(t));
    }
  }
  return {
    id: entityId(source, entity.sourceId),
    source,
    feed,
    source_id: entity.sourceId,
    entity_type: entity.type,
    version_id: versionId,
    primary_name: entity.names[0]?.full ?? '',
    name_terms: [...terms],
    name_joined: [...joined],
    name_phonetic: [...phonetic],
    name_skeletons: [...skeletons],
    name_trigrams: [...grams],
    name_loose: [
      ...new Set(entity.names.flatMap((n) => (n.full?.trim() ? looseKeys(n.full, entity.type, 'list') : []))),
    ],
    emails: entityEmails(entity),
    identifiers: entityIdentifierKeys(entity),
    entity,
  };
}

/**
 * Loose keys (vigil-v2's readings): a Greek, kana or Hebrew spelling of a Latin name rarely shares
 * its trigrams or Double Metaphone code (Ολγα Αλιμοβα), so the in-process index meets them by the
 * consonants both can write. The list side keys its Latin words, the query side its words in those scripts.
 */
export function looseKeys(name: string, type: Entity['type'] | undefined, side: 'list' | 'query'): string[] {
  const keys = new Set<string>();
  for (const form of analyzeName(name, type).forms)
    for (const t of form.tokens) {
      if (t.kind !== 'word' || !(side === 'list' ? t.script === 'Latn' : isLooseScript(t.script))) continue;
      const key = looseKey(t.text);
      if (key.length >= 3) keys.add(key);
    }
  return [...keys];
}

/** The retrieval thresholds a query runs with (DB_SIM_THRESHOLD, TRIGRAM_HITS_MIN). */
export type TrigramThresholds = Pick<MatchingConfig, 'dbSimThreshold' | 'trigramHitsMin'>;

/** Named-query tag of the clauses that retrieve by exact, joined, phonetic or skeleton evidence. */
export const KEY_EVIDENCE = 'key';
/** Named-query tag of the fuzzy clause of query token `i`. */
const fuzzyTag = (i: number) => `tri:${i}`;

/**
 * The fewest trigrams a list token must share with a query token of `queryGrams` trigrams to pass
 * both thresholds, whatever its own length: TRIGRAM_HITS_MIN, and the Dice bound
 * 2h / (q + l) >= s with h <= l, i.e. h >= s·q / (2 - s). The cluster only sees an entity's
 * trigrams pooled over its tokens, so this filter can let through more than the thresholds
 * allow; `passesFuzzyThresholds` then checks token against token, as the in-process index does.
 */
export function minSharedTrigrams(queryGrams: number, t: TrigramThresholds): number {
  return Math.max(1, t.trigramHitsMin, Math.ceil((t.dbSimThreshold * queryGrams) / (2 - t.dbSimThreshold) - 1e-9));
}

/**
 * The query words a name may reach list tokens by fuzzily (by shared trigrams), as the
 * in-process index chooses them: words of at least three trigrams.
 */
export function fuzzyWords(name: string, type: Entity['type'] | undefined): string[] {
  const words = new Set<string>();
  for (const form of nameFeatures(name, type).forms)
    for (const t of form.tokens) if (t.kind === 'word' && trigrams(t.text).length >= 3) words.add(t.text);
  return [...words];
}

/** The candidate query for a name: the same evidence the in-process index expands a query token by. */
export function nameCandidateQuery(
  name: string,
  type: Entity['type'] | undefined,
  sources: readonly string[],
  thresholds: TrigramThresholds,
) {
  const features = nameFeatures(name, type);
  const terms = new Set<string>();
  const joined = new Set<string>();
  const phonetic = new Set<string>();
  const skeletons = new Set<string>();
  for (const form of features.forms) {
    form.terms.forEach((t) => terms.add(t));
    form.joined.forEach((t) => joined.add(t));
    form.phonetic.forEach((t) => phonetic.add(t));
    form.skeletons.forEach((t) => skeletons.add(t));
  }
  const term = (field: string, value: string, boost: number) => ({ term: { [field]: { value, boost } } });
  const key = [
    ...[...terms].map((t) => term('name_terms', t, 3)),
    // what the query splits and the list joins, and the other way round
    ...[...joined].map((t) => term('name_terms', t, 2)),
    ...[...terms].map((t) => term('name_joined', t, 2)),
    ...[...phonetic].map((t) => term('name_phonetic', t, 1)),
    ...[...skeletons].map((t) => term('name_skeletons', t, 1)),
    ...looseKeys(name, type, 'query').map((k) => term('name_loose', k, 1)),
  ];
  // One clause per query word: an entity is a fuzzy candidate only through a word whose
  // trigrams it shares often enough for this query's thresholds.
  const fuzzy = fuzzyWords(name, type).flatMap((word, i) => {
    const grams = trigrams(word);
    const needed = minSharedTrigrams(grams.length, thresholds);
    if (needed > grams.length) return [];
    const should = grams.map((g) => term('name_trigrams', g, 0.2));
    return [{ bool: { should, minimum_should_match: needed, _name: fuzzyTag(i) } }];
  });
  return {
    bool: {
      filter: [{ terms: { source: [...sources] } }],
      should: [...(key.length > 0 ? [{ bool: { should: key, _name: KEY_EVIDENCE } }] : []), ...fuzzy],
      minimum_should_match: 1,
    },
  };
}

/**
 * Whether a hit the cluster found by trigrams alone passes the thresholds token against token:
 * some fuzzy query word shares at least TRIGRAM_HITS_MIN trigrams with one list token, at a Dice
 * similarity of at least DB_SIM_THRESHOLD — the in-process index's test for a fuzzy candidate.
 */
export function passesFuzzyThresholds(
  queryWords: readonly string[],
  matchedQueries: readonly string[],
  listTerms: readonly string[],
  t: TrigramThresholds,
): boolean {
  const minHits = Math.max(1, t.trigramHitsMin);
  const listGrams = listTerms.map((term) => new Set(trigrams(term)));
  return queryWords.some((word, i) => {
    if (!matchedQueries.includes(fuzzyTag(i))) return false;
    const grams = trigrams(word);
    return listGrams.some((list) => {
      const hits = grams.filter((g) => list.has(g)).length;
      return hits >= minHits && (2 * hits) / (grams.length + list.size) >= t.dbSimThreshold;
    });
  });
}
