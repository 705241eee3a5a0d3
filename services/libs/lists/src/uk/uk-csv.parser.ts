import type { Entity, EntityType } from '../entity.js';
import { countriesIn, toIso2 } from '../countries/countries.js';
import { parseCsvText } from '../csv/csv-reader.js';
import { parseDate } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { decodeAuto, readAllBytes, type ByteStream } from '../text/decode.js';

// The UK's two CSV publications, both one row per name with the party's other facts repeated
// on every row (and, in the OFSI file, multiplied out: one row per name × date of birth):
//  - OFSI Consolidated List ("ConList.csv" / "sanctionsconlist.csv"): line 1 "Last Updated,<date>",
//    line 2 the header, rows grouped by "Group ID"; Windows-1252 in older files.
//  - FCDO UK Sanctions List CSV: line 1 "Report Date: …", then the header, rows grouped by
//    "Unique ID" (e.g. RUS2176), with "OFSI Group ID" alongside.
// Columns are found by header name, so both the 2018 OFSI layout and the later one with
// "Alias Quality" and non-Latin script columns work.

export type UkCsvVariant = 'ofsi' | 'uk-sanctions-list';

const key = (header: string): string =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

// Each field and the header names it has had across the two publications and their versions.
const COLUMNS = {
  name1: ['name 1'],
  name2: ['name 2'],
  name3: ['name 3'],
  name4: ['name 4'],
  name5: ['name 5'],
  name6: ['name 6'],
  title: ['title'],
  nonLatin: ['name non latin script'],
  nonLatinType: ['non latin script type'],
  dob: ['dob', 'd o b'],
  townOfBirth: ['town of birth'],
  countryOfBirth: ['country of birth'],
  nationality: ['nationality', 'nationality ies'],
  passportNumber: ['passport number'],
  passportDetails: ['passport details', 'passport additional information'],
  nationalIdNumber: ['ni number', 'national identification number', 'national identifier number'],
  nationalIdDetails: ['national identification details', 'national identifier additional information'],
  position: ['position'],
  address1: ['address 1', 'address line 1'],
  address2: ['address 2', 'address line 2'],
  address3: ['address 3', 'address line 3'],
  address4: ['address 4', 'address line 4'],
  address5: ['address 5', 'address line 5'],
  address6: ['address 6', 'address line 6'],
  postCode: ['post zip code', 'address postal code'],
  country: ['country', 'address country'],
  otherInformation: ['other information'],
  groupType: ['group type', 'designation type'],
  aliasType: ['alias type', 'name type'],
  aliasQuality: ['alias quality', 'alias strength'],
  regime: ['regime', 'regime name'],
  listedOn: ['listed on', 'date designated'],
  groupId: ['group id', 'ofsi group id'],
  uniqueId: ['unique id'],
  gender: ['gender'],
  email: ['email address'],
  website: ['website'],
  phone: ['phone number'],
  registration: ['business registration number s'],
  imo: ['imo number'],
  flag: ['current believed flag of ship'],
} as const;

type Column = keyof typeof COLUMNS;
type Row = (column: Column) => string;

const TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  entity: 'organization',
  ship: 'vessel',
  vessel: 'vessel',
};

/** One identifier number per enumerated item of a free-text field like OFSI's "Passport Details". */
export function identifiersInText(text: string): { value: string; country?: string; note: string }[] {
  const out: { value: string; country?: string; note: string }[] = [];
  const pieces = clean(text)
    .split(/\(?\b(?:\d{1,2}|[a-h])\)\s+/i)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const piece of pieces) {
    // The first token with a digit and at least four characters is the number.
    const m = /(?:^|[\s:])([A-Z]{0,4}[-\s]?\d[\dA-Z\-/.]{2,}[\dA-Z])(?=$|[\s,.;)(])/i.exec(piece);
    if (!m?.[1]) continue;
    const paren = /\(([^)]+)\)/.exec(piece.slice((m.index ?? 0) + m[0].length));
    const country = paren?.[1] ? countriesIn(paren[1])[0] : undefined;
    out.push({ value: m[1].trim(), ...(country ? { country } : {}), note: piece });
  }
  return out;
}

function birthPlace(town: string, country: string): string[] {
  const enumerated = /\(\d+\)|\b\d\)/;
  if (!town || !country || enumerated.test(town) || enumerated.test(country)) {
    return [town, country].filter((p) => p && p !== '-');
  }
  return [`${town}, ${country}`];
}

function splitValues(text: string): string[] {
  return text.split('|').map(clean).filter(Boolean);
}

/** Parse a UK OFSI consolidated CSV or UK Sanctions List CSV into one entity per group. */
export async function parseUkCsv(bytes: ByteStream, variant?: UkCsvVariant): Promise<Entity[]> {
  const { text } = decodeAuto(await readAllBytes(bytes));
  const records = parseCsvText(text);
  const headerIndex = records.findIndex((r) => r.some((cell) => key(cell) === 'name 6'));
  if (headerIndex < 0) return [];
  const header = (records[headerIndex] ?? []).map(key);
  const index = new Map<Column, number>();
  for (const [column, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    const at = header.findIndex((h) => names.includes(h));
    if (at >= 0) index.set(column, at);
  }
  const isSanctionsList = variant ? variant === 'uk-sanctions-list' : index.has('uniqueId');

  const drafts = new Map<string, EntityDraft>();
  // OFSI multiplies a party's rows out (name × date of birth × …), repeating every other fact
  // on each; facts already read for a party are not read again.
  const nameColumns = new Set(
    (
      [
        'name1',
        'name2',
        'name3',
        'name4',
        'name5',
        'name6',
        'title',
        'nonLatin',
        'nonLatinType',
        'aliasType',
        'aliasQuality',
      ] as const
    )
      .map((c) => index.get(c))
      .filter((i): i is number => i !== undefined),
  );
  const factsSeen = new Map<EntityDraft, Set<string>>();
  for (const record of records.slice(headerIndex + 1)) {
    const get: Row = (column) => {
      const at = index.get(column);
      return at === undefined ? '' : clean(record[at]);
    };
    const groupKey = isSanctionsList ? get('uniqueId') || get('groupId') : get('groupId');
    if (!groupKey) continue;
    let draft = drafts.get(groupKey);
    if (!draft) {
      const type = TYPES[get('groupType').toLowerCase()] ?? 'organization';
      // The OFSI Group ID is the id both publications share; the FCDO file's own Unique ID
      // is used only for parties OFSI never numbered.
      draft = new EntityDraft('uk-hmt', get('groupId') || groupKey, type);
      drafts.set(groupKey, draft);
    }
    const facts = record.filter((_, i) => !nameColumns.has(i)).join('\u0001');
    const seen = factsSeen.get(draft) ?? new Set<string>();
    factsSeen.set(draft, seen);
    addRow(draft, get, !seen.has(facts));
    seen.add(facts);
  }
  const out: Entity[] = [];
  for (const draft of drafts.values()) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}

function addRow(draft: EntityDraft, get: Row, withFacts: boolean): void {
  const isPerson = draft.type === 'individual';
  const given = [get('name1'), get('name2'), get('name3'), get('name4'), get('name5')].filter(Boolean);
  const family = get('name6');
  const full = [...given, family].filter(Boolean).join(' ');
  const aliasType = get('aliasType').toLowerCase();
  const quality = get('aliasQuality').toLowerCase();
  const title = get('title');
  let strength: 'primary' | 'strong' | 'weak' =
    aliasType.startsWith('prim') && !aliasType.includes('variation') ? 'primary' : 'strong';
  if (quality.includes('low') || quality.includes('weak')) strength = 'weak';
  const kind =
    strength === 'primary'
      ? undefined
      : aliasType.includes('fka')
        ? 'fka'
        : aliasType.includes('variation')
          ? 'variation'
          : 'aka';
  const parts =
    isPerson && given.length > 0 && family
      ? { title, given: given[0], middle: given.slice(1).join(' ') || undefined, family }
      : undefined;
  draft.addName(full, strength, { kind, parts });
  const nonLatin = get('nonLatin');
  if (nonLatin) draft.addName(nonLatin, strength === 'weak' ? 'weak' : 'strong', { kind: 'original-script' });
  if (!withFacts) return;

  for (const dob of splitValues(get('dob'))) draft.addBirthDates([parseDate(dob, 'dmy')]);
  for (const placeText of birthPlace(get('townOfBirth'), get('countryOfBirth'))) draft.addBirthPlace(placeText);
  draft.addNationalityText(get('nationality'));
  for (const position of splitValues(get('position'))) draft.addPosition(position);
  draft.addProgram(get('regime'));
  draft.setListedOn(parseDate(get('listedOn'), 'dmy'));
  draft.setGender(get('gender'));
  draft.addRemarks(get('otherInformation'));

  const passportNumber = get('passportNumber');
  const passportDetails = get('passportDetails');
  if (passportNumber) {
    for (const value of splitValues(passportNumber)) {
      draft.addIdentifier({ type: 'passport', value, country: countriesIn(passportDetails)[0], note: passportDetails });
    }
  } else if (passportDetails) {
    for (const id of identifiersInText(passportDetails)) draft.addIdentifier({ type: 'passport', ...id });
  }
  const idNumber = get('nationalIdNumber');
  const idDetails = get('nationalIdDetails');
  if (idNumber && idDetails) {
    for (const value of splitValues(idNumber)) {
      draft.addIdentifier({ type: 'national-id', value, country: countriesIn(idDetails)[0], note: idDetails });
    }
  } else if (idNumber) {
    for (const id of identifiersInText(idNumber)) draft.addIdentifier({ type: 'national-id', ...id });
  }
  for (const value of splitValues(get('registration'))) draft.addIdentifier({ type: 'registration', value });
  for (const value of splitValues(get('imo'))) {
    const digits = /(\d{7})/.exec(value)?.[1];
    if (digits) draft.addIdentifier({ type: 'imo', value: digits });
  }
  for (const value of splitValues(get('email'))) draft.addIdentifier({ type: 'email', value });
  for (const value of splitValues(get('website'))) draft.addIdentifier({ type: 'website', value });
  for (const value of splitValues(get('phone'))) draft.addIdentifier({ type: 'phone', value });
  const flag = toIso2(get('flag'));
  if (flag) draft.flag = flag;

  const lines = [
    get('address1'),
    get('address2'),
    get('address3'),
    get('address4'),
    get('address5'),
    get('address6'),
  ].filter(Boolean);
  const postCode = get('postCode');
  const country = get('country');
  if (lines.length > 0 || postCode || country) {
    draft.addAddress({
      street: lines.slice(0, 2).join(', '),
      postalCode: postCode,
      countryText: country,
      full: [...lines, postCode, country].filter(Boolean).join(', '),
    });
  }
}

/** OFSI Consolidated List CSV (grouped by Group ID). */
export function parseUkOfsiCsv(bytes: ByteStream): Promise<Entity[]> {
  return parseUkCsv(bytes, 'ofsi');
}

/** FCDO UK Sanctions List CSV (grouped by Unique ID; sourceId is the OFSI Group ID when given). */
export function parseUkSanctionsListCsv(bytes: ByteStream): Promise<Entity[]> {
  return parseUkCsv(bytes, 'uk-sanctions-list');
}
