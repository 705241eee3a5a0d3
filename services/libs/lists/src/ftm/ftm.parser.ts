import type { Entity, EntityType } from '../entity.js';
import { normaliseIso2 } from '../countries/countries.js';
import { parseDate, parseIsoDate } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { normaliseIdentifier } from '../ofac/ofac-remarks.js';
import { decodeStream, type ByteStream } from '../text/decode.js';

// OpenSanctions FollowTheMoney entities, one JSON object per line. Only entities marked
// `target: true` of a party schema are screened entities; the others (Address, Sanction,
// Passport, Ownership, …) are joined in as facts of the party they point to. The join needs
// the whole file, so parties are built after the last line.

type FtmEntity = {
  id?: string;
  schema?: string;
  caption?: string;
  target?: boolean;
  datasets?: string[];
  properties?: Record<string, unknown>;
};

const PARTY_SCHEMAS: Readonly<Record<string, EntityType>> = {
  Person: 'individual',
  Organization: 'organization',
  Company: 'organization',
  LegalEntity: 'organization',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

// FtM property → identifier type.
const IDENTIFIER_PROPERTIES: readonly (readonly [string, string])[] = [
  ['passportNumber', 'passport'],
  ['idNumber', 'national-id'],
  ['taxNumber', 'tax-id'],
  ['innCode', 'tax-id'],
  ['vatCode', 'tax-id'],
  ['registrationNumber', 'registration'],
  ['ogrnCode', 'registration'],
  ['okpoCode', 'registration'],
  ['leiCode', 'lei'],
  ['swiftBic', 'swift-bic'],
  ['ibanCode', 'iban'],
  ['dunsCode', 'duns'],
  ['isinCode', 'isin'],
  ['imoNumber', 'imo'],
  ['mmsi', 'mmsi'],
  ['callSign', 'call-sign'],
  ['serialNumber', 'aircraft-serial'],
  ['email', 'email'],
  ['website', 'website'],
  ['phone', 'phone'],
];

function values(entity: FtmEntity, property: string): string[] {
  const raw = entity.properties?.[property];
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const v of raw) if (typeof v === 'string' && clean(v)) out.push(clean(v));
  return out;
}

function single(entity: FtmEntity, property: string): string | undefined {
  const v = values(entity, property);
  return v.length === 1 ? v[0] : undefined;
}

async function* lines(bytes: ByteStream): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of decodeStream(bytes)) {
    const text = pending + chunk;
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      yield text.slice(start, newline);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    pending = text.slice(start);
  }
  if (pending) yield pending;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Parse FtM JSON lines; returns the screened (target) parties in file order. */
export async function parseFtmJsonLines(bytes: ByteStream): Promise<Entity[]> {
  const parties: FtmEntity[] = [];
  const addresses = new Map<string, FtmEntity>();
  const sanctionsOf = new Map<string, FtmEntity[]>();
  const documentsOf = new Map<string, FtmEntity[]>();

  for await (const line of lines(bytes)) {
    const text = line.trim();
    if (!text) continue;
    let entity: FtmEntity;
    try {
      entity = JSON.parse(text) as FtmEntity;
    } catch {
      continue; // a truncated last line of a partial download
    }
    if (!entity.id || !entity.schema) continue;
    if (entity.target && PARTY_SCHEMAS[entity.schema]) parties.push(entity);
    else if (entity.schema === 'Address') addresses.set(entity.id, entity);
    else if (entity.schema === 'Sanction') for (const id of values(entity, 'entity')) pushTo(sanctionsOf, id, entity);
    else if (entity.schema === 'Passport' || entity.schema === 'Identification') {
      for (const id of values(entity, 'holder')) pushTo(documentsOf, id, entity);
    }
  }

  const out: Entity[] = [];
  for (const party of parties) {
    const entity = toEntity(
      party,
      addresses,
      sanctionsOf.get(party.id ?? '') ?? [],
      documentsOf.get(party.id ?? '') ?? [],
    );
    if (entity) out.push(entity);
  }
  return out;
}

function toEntity(
  party: FtmEntity,
  addresses: Map<string, FtmEntity>,
  sanctions: FtmEntity[],
  documents: FtmEntity[],
): Entity | undefined {
  const id = party.id ?? '';
  const type = PARTY_SCHEMAS[party.schema ?? ''] ?? 'organization';
  const draft = new EntityDraft('opensanctions', id, type);
  const names = values(party, 'name');
  const caption = clean(party.caption);
  const primary = caption && names.includes(caption) ? caption : (names[0] ?? caption);
  const parts =
    type === 'individual'
      ? {
          title: single(party, 'title'),
          given: single(party, 'firstName'),
          middle: single(party, 'middleName'),
          patronymic: single(party, 'fatherName'),
          family: single(party, 'lastName'),
        }
      : undefined;
  draft.addName(primary, 'primary', { parts });
  for (const name of names) draft.addName(name, 'strong', { kind: 'aka' });
  for (const name of values(party, 'alias')) draft.addName(name, 'strong', { kind: 'aka' });
  for (const name of values(party, 'abbreviation')) draft.addName(name, 'strong', { kind: 'aka' });
  for (const name of values(party, 'previousName')) draft.addName(name, 'strong', { kind: 'fka' });
  for (const name of values(party, 'weakAlias')) draft.addName(name, 'weak', { kind: 'aka' });

  for (const date of values(party, 'birthDate')) draft.addBirthDates([parseIsoDate(date) ?? parseDate(date)]);
  for (const place of values(party, 'birthPlace')) draft.addBirthPlace(place);
  for (const code of values(party, 'nationality')) draft.addNationality(normaliseIso2(code));
  for (const code of values(party, 'citizenship')) draft.addCitizenship(normaliseIso2(code));
  for (const gender of values(party, 'gender')) draft.setGender(gender);
  for (const position of values(party, 'position')) draft.addPosition(position);
  for (const code of values(party, 'flag')) draft.flag ??= normaliseIso2(code);
  for (const [property, idType] of IDENTIFIER_PROPERTIES) {
    for (const value of values(party, property)) draft.addIdentifier(normaliseIdentifier(idType, value));
  }
  for (const doc of documents) {
    const number = values(doc, 'number')[0] ?? values(doc, 'passportNumber')[0];
    if (!number) continue;
    draft.addIdentifier({
      type: doc.schema === 'Passport' ? 'passport' : 'national-id',
      value: number,
      country: normaliseIso2(values(doc, 'country')[0]),
      note: values(doc, 'type')[0],
    });
  }
  for (const full of values(party, 'address')) draft.addAddress({ full });
  for (const addressId of values(party, 'addressEntity')) {
    const address = addresses.get(addressId);
    if (!address) continue;
    draft.addAddress({
      street: values(address, 'street')[0],
      city: values(address, 'city')[0],
      region: values(address, 'region')[0],
      postalCode: values(address, 'postalCode')[0],
      country: normaliseIso2(values(address, 'country')[0]),
      full: values(address, 'full')[0] ?? clean(address.caption),
    });
  }
  for (const program of values(party, 'programId')) draft.addProgram(program);
  for (const sanction of sanctions) {
    const programIds = values(sanction, 'programId');
    for (const program of programIds.length > 0 ? programIds : values(sanction, 'program')) draft.addProgram(program);
    for (const date of [...values(sanction, 'listingDate'), ...values(sanction, 'startDate')])
      draft.setListedOn(parseIsoDate(date));
  }
  for (const note of values(party, 'notes')) draft.addRemarks(note);
  for (const dataset of party.datasets ?? []) draft.addDataset(dataset);
  draft.sourceUrl = `https://www.opensanctions.org/entities/${encodeURIComponent(id)}/`;
  return draft.build();
}
