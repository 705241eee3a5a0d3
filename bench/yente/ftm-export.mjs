// The lists Vigil screens, written as FollowTheMoney entities for yente (issue #34's anchor).
//
// Each list @vigil/lists parses becomes one yente dataset: a file of FtM JSON lines, one party a
// line, under an id that names its list and its own reference (`ofac-sdn.17176`), so that a yente
// result maps back to the record the labels name. OpenSanctions sources are FtM already: yente
// reads their files as they are (one dataset per file), with their own ids.
//
// What goes over: every name (primary → name, strong aliases → alias, weak ones → weakAlias, the
// name parts of the primary name of a person), dates and places of birth, nationality,
// citizenship, countries of address, gender, positions, flag, and the identifiers FtM has a
// property for on the party's schema. Properties a schema does not have are left out (the schema
// tables come from yente's own followthemoney, so FtM decides, not a list kept here).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Vigil entity type → FtM schema; a type the list does not state (BIS DPL) stays generic. */
const SCHEMA_OF = { individual: 'Person', organization: 'Organization', vessel: 'Vessel', aircraft: 'Airplane' };

/** Vigil identifier type → the FtM property holding it. */
const IDENTIFIER_PROPERTY = {
  passport: 'passportNumber',
  'national-id': 'idNumber',
  'tax-id': 'taxNumber',
  registration: 'registrationNumber',
  imo: 'imoNumber',
  mmsi: 'mmsi',
  'call-sign': 'callSign',
  'swift-bic': 'swiftBic',
  lei: 'leiCode',
  isin: 'isinCode',
  duns: 'dunsCode',
  iban: 'ibanCode',
  'aircraft-serial': 'serialNumber',
  'aircraft-tail': 'registrationNumber',
  email: 'email',
  website: 'website',
  phone: 'phone',
};

/** The FtM id of a Vigil record: list and reference, in the characters FtM ids keep. */
export const ftmIdOf = (entity) => `${entity.listId}.${entity.sourceId}`.replace(/[^A-Za-z0-9.\-_]/g, '-');

/** A yente dataset name (letters, digits, underscores) for a Vigil list id. */
export const datasetOf = (listId) => listId.replace(/[^a-z0-9]/g, '_');

function schemaOf(entity) {
  if (entity.typeInferred && entity.type !== 'vessel' && entity.type !== 'aircraft') return 'LegalEntity';
  return SCHEMA_OF[entity.type] ?? 'LegalEntity';
}

/**
 * One Vigil entity as an FtM entity: only properties `schemas[schema]` has, values de-duplicated.
 * @param {import('@vigil/lists').Entity} entity
 * @param {Record<string, string[]>} schemas FtM schema name → its property names
 */
export function toFtm(entity, schemas) {
  const schema = schemaOf(entity);
  const allowed = new Set(schemas[schema] ?? []);
  const properties = {};
  const add = (property, value) => {
    if (!allowed.has(property) || typeof value !== 'string' || !value.trim()) return;
    const list = (properties[property] ??= []);
    if (!list.includes(value.trim())) list.push(value.trim());
  };
  const [primary, ...others] = entity.names;
  if (primary) add('name', primary.full);
  for (const name of others) add(name.strength === 'weak' ? 'weakAlias' : 'alias', name.full);
  if (schema === 'Person' && primary?.parts) {
    add('firstName', primary.parts.given);
    add('middleName', primary.parts.middle);
    add('fatherName', primary.parts.patronymic);
    add('lastName', primary.parts.family);
    add('title', primary.parts.title);
  }
  for (const date of entity.birthDates) add('birthDate', date);
  for (const place of entity.birthPlaces) add('birthPlace', place);
  // An organisation's "nationality" (OFAC remarks) is its country in FtM.
  for (const code of entity.nationalities) add(schema === 'Person' ? 'nationality' : 'country', code.toLowerCase());
  for (const code of entity.citizenships) add('citizenship', code.toLowerCase());
  for (const address of entity.addresses) {
    if (address.country) add('country', address.country.toLowerCase());
    add('address', address.full);
  }
  if (entity.flag) add('flag', entity.flag.toLowerCase());
  if (entity.gender) add('gender', entity.gender);
  for (const position of entity.positions ?? []) add('position', position);
  for (const id of entity.identifiers) add(IDENTIFIER_PROPERTY[id.type], id.value);
  return { id: ftmIdOf(entity), schema, properties, datasets: [datasetOf(entity.listId)], target: true };
}

/**
 * Writes one FtM file per list (OpenSanctions files are referenced where they lie) and yente's
 * manifest: a dataset per file and one collection, `vigil`, holding them all.
 * @param {{ sources: { listId: string, format: string, files: string[] }[], entities: object[] }} loaded
 *   what `loadListsFromDir(listsDir)` returned
 * @returns {{ manifest: string, collection: string, datasets: { name: string, path: string, entities: number }[],
 *   recordOf: Map<string, { listId: string, sourceId: string }> }}
 */
export function exportLists({ loaded, listsDir, outDir, schemas, version }) {
  mkdirSync(outDir, { recursive: true });
  const recordOf = new Map();
  const datasets = [];
  const byList = new Map();
  for (const entity of loaded.entities) {
    if (entity.listId === 'opensanctions') {
      recordOf.set(entity.sourceId, { listId: entity.listId, sourceId: entity.sourceId });
      continue;
    }
    if (!byList.has(entity.listId)) byList.set(entity.listId, []);
    byList.get(entity.listId).push(entity);
  }
  for (const [listId, entities] of byList) {
    const path = join(outDir, `${datasetOf(listId)}.ftm.json`);
    const lines = entities.map((entity) => {
      const ftm = toFtm(entity, schemas);
      recordOf.set(ftm.id, { listId, sourceId: entity.sourceId });
      return JSON.stringify(ftm);
    });
    writeFileSync(path, lines.join('\n') + '\n');
    datasets.push({ name: datasetOf(listId), path, entities: entities.length });
  }
  for (const source of loaded.sources.filter((s) => s.listId === 'opensanctions')) {
    for (const file of source.files) {
      const name = `opensanctions_${file
        .split('/')
        .slice(-2, -1)[0]
        .replace(/[^a-z0-9]/g, '_')}`;
      datasets.push({ name, path: join(listsDir, file), entities: source.entityCount });
    }
  }
  // JSON is YAML: the manifest needs no YAML writer.
  const manifest = {
    catalogs: [],
    datasets: [
      ...datasets.map((d) => ({ name: d.name, title: d.name, version, path: d.path })),
      { name: 'vigil', title: 'Every list Vigil screens', version, children: datasets.map((d) => d.name) },
    ],
  };
  const manifestPath = join(outDir, 'manifest.yml');
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  return { manifest: manifestPath, collection: 'vigil', datasets, recordOf };
}
