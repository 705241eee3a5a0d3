import type { Entity } from '../entity.js';
import { toIso2 } from '../countries/countries.js';
import { parseDate, parseIsoDate, yearRange } from '../dates.js';
import { EntityDraft, clean, splitCommaName } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import { child, childText, childrenNamed, readXmlRecords, type XmlElement } from '../xml/xml-reader.js';

// UN Security Council Consolidated List (sc-sanctions.xsd): CONSOLIDATED_LIST/INDIVIDUALS/
// INDIVIDUAL and ENTITIES/ENTITY. Names come as FIRST_NAME…FOURTH_NAME in the order the UN
// writes them (not given/family), plus NAME_ORIGINAL_SCRIPT (mostly Arabic, some Cyrillic).
// An ALIAS_NAME can hold several names separated by "; ". QUALITY "Low" marks weak aliases.

const IDENTIFIER_TYPES: readonly (readonly [RegExp, string])[] = [
  [/passport|passeport|pasaporte/i, 'passport'],
  [/national identification|identity card|id card|national id/i, 'national-id'],
  [/tax/i, 'tax-id'],
];

function valuesOf(record: XmlElement, name: string): string[] {
  const container = child(record, name);
  return container
    ? childrenNamed(container, 'VALUE')
        .map((v) => clean(v.text))
        .filter(Boolean)
    : [];
}

function place(element: XmlElement, fields: readonly string[]): string {
  return fields
    .map((f) => childText(element, f))
    .filter(Boolean)
    .join(', ');
}

function birthDates(element: XmlElement): string[] {
  const type = childText(element, 'TYPE_OF_DATE').toUpperCase();
  const date = parseIsoDate(childText(element, 'DATE')) ?? parseDate(childText(element, 'DATE'));
  const year = Number(childText(element, 'YEAR')) || undefined;
  const from = Number(childText(element, 'FROM_YEAR')) || undefined;
  const to = Number(childText(element, 'TO_YEAR')) || undefined;
  if (type === 'BETWEEN' && from && to) return yearRange(from, to);
  if (date) return [date];
  if (year) return [String(year)];
  if (from && to) return yearRange(from, to);
  if (from) return [String(from)];
  return [];
}

function toEntity(record: XmlElement): Entity | undefined {
  const sourceId = childText(record, 'REFERENCE_NUMBER') || childText(record, 'DATAID');
  if (!sourceId) return undefined;
  const isIndividual = record.name === 'INDIVIDUAL';
  const draft = new EntityDraft('un-sc', sourceId, isIndividual ? 'individual' : 'organization');

  const nameFields = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
    .map((f) => childText(record, f))
    .filter(Boolean);
  const full = nameFields.join(' ');
  // The UN numbers name parts by position. The first is mapped to `given` and the last to
  // `family`; for East Asian names written family-first that is reversed, which the
  // order-free matcher tolerates.
  const parts =
    isIndividual && nameFields.length > 1
      ? {
          given: nameFields[0],
          middle: nameFields.slice(1, -1).join(' ') || undefined,
          family: nameFields[nameFields.length - 1],
        }
      : undefined;
  // TITLE mixes honorifics ("Maulavi", "Haji", "Dr.") with functions ("Military leader of
  // M23"); a short one is the name's title, a long one a position.
  const titles = valuesOf(record, 'TITLE');
  const honorific = titles.find((t) => t.split(' ').length <= 2 && !/\d/.test(t));
  draft.addName(full, 'primary', {
    parts: isIndividual && honorific ? { title: honorific.replace(/^"|"$/g, ''), ...parts } : parts,
  });

  for (const original of childrenNamed(record, 'NAME_ORIGINAL_SCRIPT')) {
    draft.addName(original.text, 'strong', { kind: 'original-script' });
  }
  for (const alias of [...childrenNamed(record, 'INDIVIDUAL_ALIAS'), ...childrenNamed(record, 'ENTITY_ALIAS')]) {
    const quality = childText(alias, 'QUALITY').toLowerCase();
    const weak = quality === 'low';
    const kind = quality === 'f.k.a.' ? 'fka' : 'aka';
    for (const name of childText(alias, 'ALIAS_NAME').split(/\s*;\s*/)) {
      draft.addName(name, weak ? 'weak' : 'strong', {
        kind,
        parts: isIndividual ? splitCommaName(clean(name)) : undefined,
      });
    }
    // Some records give the alias's own date and place of birth.
    const aliasDob = childText(alias, 'DATE_OF_BIRTH');
    if (aliasDob) draft.addBirthDates([parseIsoDate(aliasDob) ?? parseDate(aliasDob)]);
    const aliasPob = childText(alias, 'CITY_OF_BIRTH');
    if (aliasPob) draft.addBirthPlace([aliasPob, childText(alias, 'COUNTRY_OF_BIRTH')].filter(Boolean).join(', '));
  }

  draft.addProgram(childText(record, 'UN_LIST_TYPE'));
  draft.setListedOn(parseIsoDate(childText(record, 'LISTED_ON')));
  for (const designation of valuesOf(record, 'DESIGNATION')) draft.addPosition(designation);
  for (const title of titles) if (title !== honorific) draft.addPosition(title);
  for (const nationality of valuesOf(record, 'NATIONALITY')) draft.addNationalityText(nationality);
  draft.setGender(childText(record, 'GENDER'));
  draft.addRemarks(childText(record, 'COMMENTS1'));

  for (const element of childrenNamed(record, 'INDIVIDUAL_DATE_OF_BIRTH')) draft.addBirthDates(birthDates(element));
  for (const element of childrenNamed(record, 'INDIVIDUAL_PLACE_OF_BIRTH')) {
    draft.addBirthPlace(place(element, ['CITY', 'STATE_PROVINCE', 'COUNTRY']));
  }
  for (const element of [...childrenNamed(record, 'INDIVIDUAL_ADDRESS'), ...childrenNamed(record, 'ENTITY_ADDRESS')]) {
    const note = childText(element, 'NOTE');
    const fields = place(element, ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY']);
    draft.addAddress({
      street: childText(element, 'STREET'),
      city: childText(element, 'CITY'),
      region: childText(element, 'STATE_PROVINCE'),
      postalCode: childText(element, 'ZIP_CODE'),
      countryText: childText(element, 'COUNTRY'),
      full: fields ? fields + (note ? ` (${note})` : '') : '',
    });
  }
  for (const doc of childrenNamed(record, 'INDIVIDUAL_DOCUMENT')) {
    const number = childText(doc, 'NUMBER');
    if (!number) continue;
    const label = clean(childText(doc, 'TYPE_OF_DOCUMENT'));
    const type = IDENTIFIER_TYPES.find(([pattern]) => pattern.test(label))?.[1] ?? 'other';
    const note = [label, childText(doc, 'TYPE_OF_DOCUMENT2'), childText(doc, 'NOTE')].filter(Boolean).join('; ');
    draft.addIdentifier({
      type,
      value: number,
      country: toIso2(childText(doc, 'ISSUING_COUNTRY') || childText(doc, 'COUNTRY_OF_ISSUE')),
      note,
    });
  }
  return draft.build();
}

/** Parse the UN SC consolidated XML, one entity per INDIVIDUAL or ENTITY, streaming. */
export async function* parseUnXml(bytes: ByteStream): AsyncGenerator<Entity> {
  const isRecord = (name: string, _depth: number, parent: string | undefined): boolean =>
    (name === 'INDIVIDUAL' && parent === 'INDIVIDUALS') || (name === 'ENTITY' && parent === 'ENTITIES');
  for await (const record of readXmlRecords(decodeStream(bytes), isRecord)) {
    const entity = toEntity(record);
    if (entity) yield entity;
  }
}
