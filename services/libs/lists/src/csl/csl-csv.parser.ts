import type { Entity, EntityType } from '../entity.js';
import { countriesIn, normaliseIso2, toIso2 } from '../countries/countries.js';
import { readCsvBatches } from '../csv/csv-reader.js';
import { parseDateOrRange, parseIsoDate } from '../dates.js';
import { EntityDraft, clean, inferTypeFromName, splitCommaName } from '../entity-draft.js';
import { normaliseIdentifier, ofacIdentifierType } from '../ofac/ofac-remarks.js';
import { decodeStream, type ByteStream } from '../text/decode.js';

// US Consolidated Screening List (trade.gov) CSV: one row per listing from eleven US lists
// (OFAC SDN and non-SDN lists, BIS Entity/Denied/Unverified/MEU lists, State ISN and DTC).
// Multi-valued cells are "; "-separated; "ids" holds "Type, number, country" triples. The file
// in the wild repeats its header row, and the same party can appear on two lists under one
// id; such rows are merged, keeping each list in `datasets`. BIS rows carry no type: it is
// inferred from the name and flagged.

const TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  entity: 'organization',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

const COLUMNS = [
  '_id',
  'source',
  'entity_number',
  'type',
  'programs',
  'name',
  'title',
  'addresses',
  'start_date',
  'call_sign',
  'vessel_flag',
  'remarks',
  'alt_names',
  'citizenships',
  'dates_of_birth',
  'nationalities',
  'places_of_birth',
  'source_information_url',
  'ids',
] as const;
type Column = (typeof COLUMNS)[number];

function splitList(text: string): string[] {
  return text
    .split(/\s*;\s*/)
    .map(clean)
    .filter(Boolean);
}

// "31 Jinrong Street, Xicheng District, Beijing, 100033, CN": the last comma part is the country code.
function addressOf(text: string): { full: string; country?: string } {
  const parts = text.split(',').map(clean);
  const last = parts[parts.length - 1] ?? '';
  const country = /^[A-Z]{2}$/.test(last) ? normaliseIso2(last) : toIso2(last);
  return { full: clean(text), ...(country ? { country } : {}) };
}

/** Parse the CSL CSV, one entity per entity_number (or _id), in order of first appearance. */
export async function parseCslCsv(bytes: ByteStream): Promise<Entity[]> {
  let index: Map<Column, number> | undefined;
  const drafts = new Map<string, EntityDraft>();
  for await (const batch of readCsvBatches(decodeStream(bytes)))
    for (const record of batch) {
      if (!index) {
        index = new Map();
        for (const column of COLUMNS)
          index.set(
            column,
            record.findIndex((h) => clean(h).toLowerCase() === column),
          );
        continue;
      }
      const get = (column: Column): string => {
        const at = index?.get(column) ?? -1;
        return at < 0 ? '' : clean(record[at]);
      };
      const id = get('entity_number') || get('_id');
      // The repeated header row (`_id,source,…`) is not a listing.
      if (!id || id === '_id' || get('source') === 'source') continue;
      const name = get('name');
      let draft = drafts.get(id);
      if (!draft) {
        const stated = TYPES[get('type').toLowerCase()];
        draft = new EntityDraft('us-csl', id, stated ?? inferTypeFromName(name));
        draft.typeInferred = !stated;
        drafts.set(id, draft);
      }
      const isPerson = draft.type === 'individual';
      draft.addName(name, 'primary', { parts: isPerson ? splitCommaName(name) : undefined });
      for (const alias of splitList(get('alt_names'))) {
        draft.addName(alias, 'strong', { kind: 'aka', parts: isPerson ? splitCommaName(alias) : undefined });
      }
      draft.addDataset(get('source'));
      for (const program of splitList(get('programs'))) draft.addProgram(program);
      draft.addPosition(get('title'));
      for (const address of splitList(get('addresses'))) draft.addAddress(addressOf(address));
      draft.setListedOn(parseIsoDate(get('start_date')));
      for (const dob of splitList(get('dates_of_birth'))) draft.addBirthDates(parseDateOrRange(dob));
      for (const place of splitList(get('places_of_birth'))) draft.addBirthPlace(place);
      for (const code of splitList(get('nationalities')))
        draft.addNationality(normaliseIso2(code) ?? countriesIn(code)[0]);
      for (const code of splitList(get('citizenships')))
        draft.addCitizenship(normaliseIso2(code) ?? countriesIn(code)[0]);
      const callSign = get('call_sign');
      if (callSign) draft.addIdentifier({ type: 'call-sign', value: callSign });
      const flag = toIso2(get('vessel_flag'));
      if (flag) draft.flag = flag;
      for (const triple of splitList(get('ids'))) {
        // "Passport, U00242309, TR" / "Gender, Male" / "Digital Currency Address - XBT, 1Abc…"
        const [label = '', value = '', country = ''] = triple.split(/\s*,\s*/);
        if (/^gender$/i.test(label)) {
          draft.setGender(value);
          continue;
        }
        const type = ofacIdentifierType(label);
        if (type === 'other' || !value) continue;
        const normalised = normaliseIdentifier(type, value);
        draft.addIdentifier({
          ...normalised,
          country: normaliseIso2(country) ?? toIso2(country),
          note: type === 'crypto-address' ? label.replace(/^Digital Currency Address - /i, '') : label,
        });
      }
      draft.addRemarks(get('remarks'));
      draft.sourceUrl ??= get('source_information_url') || undefined;
    }
  const out: Entity[] = [];
  for (const draft of drafts.values()) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}
