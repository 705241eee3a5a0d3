#!/usr/bin/env node
// npm run eval:identifiers — every digital-currency address the OFAC SDN snapshot lists, screened
// alone through the screening service's identifier path (the in-process engine, as the service
// builds it), both as an `identifiers` entry and pasted into the name field; then valid but
// unlisted addresses (correct checksums, seeded) that must all come back clear. Prints found/total.
// Needs the built packages (npm run build).
//
//   node bench/eval-identifiers.mjs [--lists DIR]   (default ../shared/data/lists/ofac_sdn)
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identifierProblem, normaliseIdentifierValue } from '../services/libs/lists/dist/index.js';
import { loadListsFromDir } from '../services/libs/lists/dist/node/load-dir.js';
import { validUnlistedAddresses } from '../services/libs/lists/dist/testing/valid-addresses.js';
import { InProcessEngine } from '../services/screening/dist/src/index/in-process.engine.js';
import { planIdentifiers } from '../services/screening/dist/src/screening/screening.identifiers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--lists');
const dir = i > 0 ? process.argv[i + 1] : join(root, '../shared/data/lists/ofac_sdn');
if (!existsSync(dir)) {
  console.error(`no list snapshot at ${dir}`);
  process.exit(2);
}

const { entities } = await loadListsFromDir(dir);
const engine = new InProcessEngine();
const info = {
  source: 'ofac-sdn',
  feed: 'ofac',
  dataset: 'ofac_sdn',
  versionId: 1,
  sha256: '',
  fetchedAt: '',
  entityCount: entities.length,
};
await engine.load([{ info, entities }]);
const scope = { sources: ['ofac-sdn'], limit: 10 };

// Each distinct address once (several entities may list the same one), with the entities listing it.
const listed = new Map();
for (const e of entities) {
  for (const id of e.identifiers) {
    if (id.type !== 'crypto-address') continue;
    const key = normaliseIdentifierValue('crypto-address', id.value);
    const seen = listed.get(key) ?? { value: id.value, chain: id.chain, owners: new Set() };
    seen.owners.add(e.sourceId);
    listed.set(key, seen);
  }
}

const found = (matches, owners) => matches.some((m) => m.matchedOn === 'identifier' && owners.has(m.entity.sourceId));
let asIdentifier = 0;
let asName = 0;
let malformed = 0;
// A few list values are fragments cut off by the source ("XBT 1Gq"): no one pastes those as a
// name, and a name field holding "1Gq" is a name. They count for the identifier pass only.
let nameEligible = 0;
const missed = [];
for (const { value, chain, owners } of listed.values()) {
  if (identifierProblem('crypto-address', value)) malformed++;
  const byId = await engine.screen({ identifiers: [{ scheme: 'crypto-address', value }] }, scope);
  if (found(byId, owners)) asIdentifier++;
  else missed.push(`${chain} ${value} (identifier)`);
  if (value.length < 25) {
    missed.push(`${chain} ${value} (a fragment on the list: name-field pass not applicable)`);
    continue;
  }
  nameEligible++;
  const plan = planIdentifiers(value, undefined);
  const query = { ...(plan.nameIsAddress ? {} : { name: value }), identifiers: plan.identifiers };
  const byName = await engine.screen(query, scope);
  if (found(byName, owners)) asName++;
  else missed.push(`${chain} ${value} (name field)`);
}

const unlisted = validUnlistedAddresses(50);
let falseHits = 0;
for (const value of unlisted) {
  const plan = planIdentifiers(value, undefined);
  const matches = await engine.screen(
    { ...(plan.nameIsAddress ? {} : { name: value }), identifiers: plan.identifiers },
    scope,
  );
  if (matches.some((m) => m.matchedOn === 'identifier' || m.score >= 0.6)) falseHits++;
}
await engine.close();

const entitiesWith = new Set([...listed.values()].flatMap((l) => [...l.owners])).size;
console.log(
  `lists: ${dir} (${entities.length} entities; ${listed.size} distinct addresses on ${entitiesWith} entities)`,
);
console.log(`listed addresses found, screened as identifiers: ${asIdentifier}/${listed.size}`);
console.log(`listed addresses found, pasted as names:          ${asName}/${nameEligible} (address-shaped)`);
console.log(`  of which malformed on the list (truncated or bad checksum): ${malformed}`);
console.log(`valid unlisted addresses found (must be 0):       ${falseHits}/${unlisted.length}`);
for (const m of missed) console.log(`  ${m}`);
process.exit(asIdentifier === listed.size && asName === nameEligible && falseHits === 0 ? 0 : 1);
