import type { Entity } from '../entity.js';
import { readCsvBatches } from '../csv/csv-reader.js';
import { parseDate } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import {
  addEuAddress,
  addEuBirth,
  addEuCitizenship,
  addEuIdentification,
  addEuName,
  euEntityType,
} from './eu-facts.js';

// EU Financial Sanctions File, CSV flavour: ";"-separated, UTF-8 with a byte-order mark, one
// row per name, address, birth date, identification or citizenship of an entity, all rows of
// an entity sharing "Entity_LogicalId". Columns are found by header name (case-insensitive),
// which covers the 1.0 and 1.1 layouts.

// CSV column (lower case) → field of the shared EU shapes.
const NAME = {
  wholename: 'wholeName',
  firstname: 'firstName',
  middlename: 'middleName',
  lastname: 'lastName',
  title: 'title',
  function: 'function',
  gender: 'gender',
  strong: 'strong',
} as const;
const BIRTH = {
  birthdate: 'birthdate',
  day: 'dayOfMonth',
  month: 'monthOfYear',
  year: 'year',
  yearrangefrom: 'yearRangeFrom',
  yearrangeto: 'yearRangeTo',
  city: 'city',
  place: 'place',
  region: 'region',
  countryiso2code: 'countryIso2Code',
  countrydescription: 'countryDescription',
} as const;
const ADDRESS = {
  street: 'street',
  pobox: 'poBox',
  city: 'city',
  zipcode: 'zipCode',
  region: 'region',
  place: 'place',
  countryiso2code: 'countryIso2Code',
  countrydescription: 'countryDescription',
} as const;
const IDENTIFICATION = {
  number: 'number',
  latinnumber: 'latinNumber',
  typecode: 'identificationTypeCode',
  typedescription: 'identificationTypeDescription',
  countryiso2code: 'countryIso2Code',
  countrydescription: 'countryDescription',
} as const;
const CITIZENSHIP = { countryiso2code: 'countryIso2Code', countrydescription: 'countryDescription' } as const;

type Section = 'namealias' | 'birthdate' | 'address' | 'identification' | 'citizenship';
const SECTIONS: Readonly<Record<Section, Readonly<Record<string, string>>>> = {
  namealias: NAME,
  birthdate: BIRTH,
  address: ADDRESS,
  identification: IDENTIFICATION,
  citizenship: CITIZENSHIP,
};

type Layout = {
  logicalId: number;
  subjectType: number[];
  designationDate: number;
  remark: number;
  programme: number;
  url: number;
  sections: Map<Section, [field: string, index: number][]>;
};

function layoutOf(header: string[]): Layout | undefined {
  const lower = header.map((h) => clean(h).toLowerCase());
  const at = (name: string): number => lower.indexOf(name);
  const logicalId = at('entity_logicalid');
  if (logicalId < 0) return undefined;
  const sections = new Map<Section, [string, number][]>();
  lower.forEach((column, index) => {
    const [section, field] = column.split('_', 2) as [string, string | undefined];
    const mapping = SECTIONS[section as Section];
    const target = field ? mapping?.[field] : undefined;
    if (!mapping || !target) return;
    const list = sections.get(section as Section) ?? [];
    list.push([target, index]);
    sections.set(section as Section, list);
  });
  return {
    logicalId,
    subjectType: [at('entity_subjecttype_classificationcode'), at('entity_subjecttype')].filter((i) => i >= 0),
    designationDate: at('entity_designationdate'),
    remark: at('entity_remark'),
    programme: at('entity_regulation_programme'),
    url: at('entity_regulation_publicationurl'),
    sections,
  };
}

function pick(record: string[], fields: [string, number][] | undefined): Record<string, string> | undefined {
  if (!fields) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const [field, index] of fields) {
    const value = clean(record[index]);
    if (value) {
      out[field] = value;
      any = true;
    }
  }
  return any ? out : undefined;
}

/** Parse the EU FSF CSV export; entities in order of first appearance. */
export async function parseEuCsv(bytes: ByteStream): Promise<Entity[]> {
  let layout: Layout | undefined;
  const drafts = new Map<string, EntityDraft>();
  for await (const batch of readCsvBatches(decodeStream(bytes), { delimiter: ';' }))
    for (const record of batch) {
      if (!layout) {
        layout = layoutOf(record);
        continue;
      }
      const logicalId = clean(record[layout.logicalId]);
      // Repeated header rows and junk have no numeric id.
      if (!/^\d+$/.test(logicalId)) continue;
      let draft = drafts.get(logicalId);
      if (!draft) {
        const subject = layout.subjectType.map((i) => clean(record[i])).find(Boolean);
        draft = new EntityDraft('eu-fsf', logicalId, euEntityType(subject));
        drafts.set(logicalId, draft);
      }
      const name = pick(record, layout.sections.get('namealias'));
      if (name) addEuName(draft, name);
      const birth = pick(record, layout.sections.get('birthdate'));
      if (birth) addEuBirth(draft, birth);
      const address = pick(record, layout.sections.get('address'));
      if (address) addEuAddress(draft, address);
      const identification = pick(record, layout.sections.get('identification'));
      if (identification) addEuIdentification(draft, identification);
      const citizenship = pick(record, layout.sections.get('citizenship'));
      if (citizenship) addEuCitizenship(draft, citizenship);
      draft.addProgram(record[layout.programme]);
      draft.addRemarks(record[layout.remark]);
      draft.setListedOn(parseDate(clean(record[layout.designationDate])));
      draft.sourceUrl ??= clean(record[layout.url]) || undefined;
    }
  const out: Entity[] = [];
  for (const draft of drafts.values()) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}
