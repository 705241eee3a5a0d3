import type { Entity, EntityType, ListId } from '../entity.js';
import { toIso2 } from '../countries/countries.js';
import { parseDateOrRange } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import { child, childText, childrenNamed, readXmlRecords, type XmlElement } from '../xml/xml-reader.js';
import { applyOfacRemarks, normaliseIdentifier, ofacIdentifierType, parseOfacRemarks } from './ofac-remarks.js';

// OFAC "SDN.XML" (and the same schema for the consolidated list, CONSOLIDATED.XML):
// sdnList/sdnEntry with uid, firstName/lastName, sdnType, programList, akaList (each aka with a
// "strong" or "weak" category), idList, addressList, nationalityList, citizenshipList,
// dateOfBirthList, placeOfBirthList, vesselInfo and residual remarks. Streamed per entry.

const TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  entity: 'organization',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

const ALIAS_KINDS: Readonly<Record<string, string>> = { 'a.k.a.': 'aka', 'f.k.a.': 'fka', 'n.k.a.': 'nka' };

/** "LAST, First" as OFAC prints people, or the single name of anything else. */
function fullName(element: XmlElement): { full: string; given?: string; family?: string } {
  const first = childText(element, 'firstName');
  const last = childText(element, 'lastName');
  if (first && last) return { full: `${last}, ${first}`, given: first, family: last };
  return { full: last || first };
}

function listItems(entry: XmlElement, list: string, item: string): XmlElement[] {
  const container = child(entry, list);
  return container ? childrenNamed(container, item) : [];
}

function toEntity(entry: XmlElement, listId: ListId): Entity | undefined {
  const uid = childText(entry, 'uid');
  if (!uid) return undefined;
  const type = TYPES[childText(entry, 'sdnType').toLowerCase()] ?? 'organization';
  const draft = new EntityDraft(listId, uid, type);
  const isPerson = type === 'individual';

  const primary = fullName(entry);
  draft.addName(primary.full, 'primary', {
    parts: isPerson && primary.family ? { given: primary.given, family: primary.family } : undefined,
  });
  for (const aka of listItems(entry, 'akaList', 'aka')) {
    const name = fullName(aka);
    const weak = childText(aka, 'category').toLowerCase() === 'weak';
    draft.addName(name.full, weak ? 'weak' : 'strong', {
      kind: ALIAS_KINDS[childText(aka, 'type').toLowerCase()] ?? 'aka',
      parts: isPerson && name.family ? { given: name.given, family: name.family } : undefined,
    });
  }
  for (const program of listItems(entry, 'programList', 'program')) draft.addProgram(program.text);
  const title = childText(entry, 'title');
  if (title) draft.addPosition(title);

  for (const id of listItems(entry, 'idList', 'id')) {
    const label = childText(id, 'idType');
    const number = childText(id, 'idNumber');
    if (/^gender$/i.test(label)) {
      draft.setGender(number);
      continue;
    }
    const idType = ofacIdentifierType(label);
    if (idType === 'other' || !number) continue;
    draft.addIdentifier({
      ...normaliseIdentifier(idType, number),
      country: toIso2(childText(id, 'idCountry')),
      note: idType === 'crypto-address' ? label.replace(/^Digital Currency Address - /i, '') : label,
    });
  }
  for (const address of listItems(entry, 'addressList', 'address')) {
    const street = ['address1', 'address2', 'address3']
      .map((f) => childText(address, f))
      .filter(Boolean)
      .join(', ');
    const city = childText(address, 'city');
    const region = childText(address, 'stateOrProvince');
    const postalCode = childText(address, 'postalCode');
    const country = childText(address, 'country');
    draft.addAddress({ street, city, region, postalCode, countryText: country });
  }
  for (const n of listItems(entry, 'nationalityList', 'nationality')) draft.addNationalityText(childText(n, 'country'));
  for (const c of listItems(entry, 'citizenshipList', 'citizenship')) draft.addCitizenshipText(childText(c, 'country'));
  for (const d of listItems(entry, 'dateOfBirthList', 'dateOfBirthItem'))
    draft.addBirthDates(parseDateOrRange(childText(d, 'dateOfBirth')));
  for (const p of listItems(entry, 'placeOfBirthList', 'placeOfBirthItem'))
    draft.addBirthPlace(childText(p, 'placeOfBirth'));

  const vessel = child(entry, 'vesselInfo');
  if (vessel) {
    const callSign = childText(vessel, 'callSign');
    if (callSign) draft.addIdentifier({ type: 'call-sign', value: callSign });
    draft.flag = toIso2(childText(vessel, 'vesselFlag'));
  }
  const remarks = clean(childText(entry, 'remarks'));
  if (remarks) {
    draft.addRemarks(remarks);
    applyOfacRemarks(draft, parseOfacRemarks(remarks));
  }
  draft.sourceUrl = `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${uid}`;
  return draft.build();
}

/** Parse OFAC SDN.XML / CONSOLIDATED.XML, streaming one entity per sdnEntry. */
export async function* parseOfacXml(bytes: ByteStream, listId: ListId = 'ofac-sdn'): AsyncGenerator<Entity> {
  const isRecord = (name: string, depth: number): boolean => name === 'sdnEntry' && depth === 1;
  for await (const entry of readXmlRecords(decodeStream(bytes), isRecord)) {
    const entity = toEntity(entry, listId);
    if (entity) yield entity;
  }
}
