import type { Entity } from '@vigil/lists';
import { nameFeatures } from '@vigil/matching';
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
    emails: entityEmails(entity),
    identifiers: entityIdentifierKeys(entity),
    entity,
  };
}

/** The candidate query for a name: the same evidence the in-process index expands a query token by. */
export function nameCandidateQuery(name: string, type: Entity['type'] | undefined, sources: readonly string[]) {
  const features = nameFeatures(name, type);
  const terms = new Set<string>();
  const joined = new Set<string>();
  const phonetic = new Set<string>();
  const skeletons = new Set<string>();
  const grams = new Set<string>();
  for (const form of features.forms) {
    form.terms.forEach((t) => terms.add(t));
    form.joined.forEach((t) => joined.add(t));
    form.phonetic.forEach((t) => phonetic.add(t));
    form.skeletons.forEach((t) => skeletons.add(t));
    form.trigrams.forEach((t) => grams.add(t));
  }
  const term = (field: string, value: string, boost: number) => ({ term: { [field]: { value, boost } } });
  const should = [
    ...[...terms].map((t) => term('name_terms', t, 3)),
    // what the query splits and the list joins, and the other way round
    ...[...joined].map((t) => term('name_terms', t, 2)),
    ...[...terms].map((t) => term('name_joined', t, 2)),
    ...[...phonetic].map((t) => term('name_phonetic', t, 1)),
    ...[...skeletons].map((t) => term('name_skeletons', t, 1)),
    ...[...grams].map((t) => term('name_trigrams', t, 0.2)),
  ];
  return {
    bool: {
      filter: [{ terms: { source: [...sources] } }],
      should,
      minimum_should_match: 1,
    },
  };
}
