import type { Entity, EntityType, ListId, NameParts, PartialDate } from '../entity.js';
import { normaliseIso2, toIso2 } from '../countries/countries.js';
import { dateRange, partialDate } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import { child, childText, childrenNamed, descendants, readXmlRecords, type XmlElement } from '../xml/xml-reader.js';
import { normaliseIdentifier, ofacIdentifierType } from './ofac-remarks.js';

// OFAC "SDN_ADVANCED.XML" (the Advanced Sanctions List Standard, also used for
// CONS_ADVANCED.XML). Everything is normalised into numbered reference values:
//   ReferenceValueSets  lookup tables (AliasType 1400 "A.K.A.", FeatureType 8 "Birthdate", …)
//   Locations           addresses and countries, referenced by Location ID
//   IDRegDocuments      passports, tax ids, IMO numbers…, referenced by IdentityID
//   DistinctParties     one per listed party (FixedRef = the ent_num of the legacy files):
//                       Profile/Identity/Alias/DocumentedName/DocumentedNamePart, Features
//   SanctionsEntries    programs and listing dates per ProfileID
// The sections come in that order, so each party is resolved as soon as it is read and only
// the drafts stay in memory. Lookups go through the file's own tables by name, not by
// hard-coded numbers, so renumbering does not break the parser.

type RefValue = { text: string; attrs: Record<string, string> };
type RefTables = Map<string, Map<string, RefValue>>;

type Location = { country?: string; parts: Map<string, string>; full: string };

function refText(tables: RefTables, table: string, id: string | undefined): string {
  return id ? (tables.get(table)?.get(id)?.text ?? '') : '';
}

function readTable(container: XmlElement, tables: RefTables): void {
  // "AliasTypeValues" holds "AliasType" items.
  const table = container.name.replace(/Values$/, '');
  const map = tables.get(table) ?? new Map<string, RefValue>();
  for (const item of container.children) {
    const id = item.attrs['ID'];
    if (id) map.set(id, { text: clean(item.text), attrs: item.attrs });
  }
  tables.set(table, map);
}

function countryOf(tables: RefTables, countryId: string | undefined): string | undefined {
  if (!countryId) return undefined;
  const ref = tables.get('Country')?.get(countryId);
  return normaliseIso2(ref?.attrs['ISO2']) ?? toIso2(ref?.text);
}

function readLocation(element: XmlElement, tables: RefTables): Location {
  const parts = new Map<string, string>();
  for (const part of childrenNamed(element, 'LocationPart')) {
    const type = refText(tables, 'LocPartType', part.attrs['LocPartTypeID']).toUpperCase();
    const values = childrenNamed(part, 'LocationPartValue');
    const chosen = values.find((v) => v.attrs['Primary'] === 'true') ?? values[0];
    const value = chosen ? childText(chosen, 'Value') : '';
    if (type && value) parts.set(type, value);
  }
  const countryElement = child(element, 'LocationCountry');
  const country = countryOf(tables, countryElement?.attrs['CountryID']);
  const countryName = refText(tables, 'Country', countryElement?.attrs['CountryID']);
  const order = ['ADDRESS1', 'ADDRESS2', 'ADDRESS3', 'CITY', 'STATE/PROVINCE', 'POSTAL CODE', 'REGION'];
  const full = [...order.map((k) => parts.get(k) ?? ''), countryName].filter(Boolean).join(', ');
  return { ...(country ? { country } : {}), parts, full };
}

function dateOf(element: XmlElement | undefined): PartialDate | undefined {
  if (!element) return undefined;
  return partialDate(
    Number(childText(element, 'Year')) || undefined,
    Number(childText(element, 'Month')) || undefined,
    Number(childText(element, 'Day')) || undefined,
  );
}

/** A DatePeriod (Start From/To, End From/To) reduced to the dates it pins down. */
function periodDates(period: XmlElement): PartialDate[] {
  const start = child(period, 'Start');
  const end = child(period, 'End');
  const from = dateOf(start && child(start, 'From')) ?? dateOf(start && child(start, 'To'));
  const to =
    dateOf(end && child(end, 'To')) ?? dateOf(end && child(end, 'From')) ?? dateOf(start && child(start, 'To'));
  if (from && to) return dateRange(from, to);
  return from ? [from] : to ? [to] : [];
}

type PartyContext = {
  tables: RefTables;
  locations: Map<string, Location>;
  documentsByIdentity: Map<string, XmlElement[]>;
  listId: ListId;
};

function partyType(tables: RefTables, subTypeId: string | undefined): EntityType {
  const subType = tables.get('PartySubType')?.get(subTypeId ?? '');
  const sub = subType?.text.toLowerCase() ?? '';
  if (sub === 'vessel') return 'vessel';
  if (sub === 'aircraft') return 'aircraft';
  const type = refText(tables, 'PartyType', subType?.attrs['PartyTypeID']).toLowerCase();
  return type === 'individual' ? 'individual' : 'organization';
}

function addNames(draft: EntityDraft, identity: XmlElement, context: PartyContext): void {
  const { tables } = context;
  // NamePartGroup ID → its type ("Last Name", "First Name", "Entity Name", …)
  const groupType = new Map<string, string>();
  for (const group of descendants(identity, 'NamePartGroup')) {
    const id = group.attrs['ID'];
    if (id) groupType.set(id, refText(tables, 'NamePartType', group.attrs['NamePartTypeID']).toLowerCase());
  }
  for (const alias of childrenNamed(identity, 'Alias')) {
    const aliasType = refText(tables, 'AliasType', alias.attrs['AliasTypeID']).toLowerCase().replace(/\./g, '');
    const isPrimary = alias.attrs['Primary'] === 'true';
    const weak = alias.attrs['LowQuality'] === 'true';
    for (const documented of childrenNamed(alias, 'DocumentedName')) {
      const parts: NameParts = {};
      const pieces: string[] = [];
      let scriptCode = '';
      for (const part of childrenNamed(documented, 'DocumentedNamePart')) {
        const value = child(part, 'NamePartValue');
        if (!value) continue;
        const text = clean(value.text);
        if (!text) continue;
        pieces.push(text);
        scriptCode ||= tables.get('Script')?.get(value.attrs['ScriptID'] ?? '')?.attrs['ScriptCode'] ?? '';
        const type = groupType.get(value.attrs['NamePartGroupID'] ?? '') ?? '';
        if (type === 'last name') parts.family = text;
        else if (type === 'first name') parts.given = text;
        else if (type === 'middle name') parts.middle = text;
        else if (type === 'patronymic') parts.patronymic = text;
      }
      if (pieces.length === 0) continue;
      const isLatin = !scriptCode || scriptCode === 'Latn';
      const rest = [parts.given, parts.middle, parts.patronymic].filter(Boolean).join(' ');
      // People read "LAST, First Middle", as in OFAC's other formats.
      const full = draft.type === 'individual' && parts.family && rest ? `${parts.family}, ${rest}` : pieces.join(' ');
      const nameParts = draft.type === 'individual' && (parts.family || parts.given) ? parts : undefined;
      if (!isLatin) {
        draft.addName(full, weak ? 'weak' : 'strong', {
          kind: 'original-script',
          parts: nameParts,
          script: scriptCode,
        });
      } else if (isPrimary) {
        draft.addName(full, 'primary', { parts: nameParts });
      } else {
        const kind = aliasType === 'fka' ? 'fka' : aliasType === 'nka' ? 'nka' : 'aka';
        draft.addName(full, weak ? 'weak' : 'strong', { kind, parts: nameParts });
      }
    }
  }
}

function addFeature(draft: EntityDraft, feature: XmlElement, context: PartyContext): void {
  const { tables, locations } = context;
  const featureType = refText(tables, 'FeatureType', feature.attrs['FeatureTypeID']);
  const type = featureType.toLowerCase();
  for (const version of childrenNamed(feature, 'FeatureVersion')) {
    const period = child(version, 'DatePeriod');
    const location = locations.get(child(version, 'VersionLocation')?.attrs['LocationID'] ?? '');
    const detail = child(version, 'VersionDetail');
    const detailText = detail
      ? clean(detail.text) || refText(tables, 'DetailReference', detail.attrs['DetailReferenceID'])
      : '';

    if (type === 'birthdate') {
      if (period) draft.addBirthDates(periodDates(period));
    } else if (type === 'place of birth') {
      draft.addBirthPlace(detailText || location?.full);
    } else if (type === 'nationality country') {
      draft.addNationality(location?.country ?? toIso2(detailText));
    } else if (type === 'citizenship country') {
      draft.addCitizenship(location?.country ?? toIso2(detailText));
    } else if (type === 'location' || type === 'address') {
      if (location) {
        const p = location.parts;
        draft.addAddress({
          street: ['ADDRESS1', 'ADDRESS2', 'ADDRESS3']
            .map((k) => p.get(k) ?? '')
            .filter(Boolean)
            .join(', '),
          city: p.get('CITY'),
          region: p.get('STATE/PROVINCE') ?? p.get('REGION'),
          postalCode: p.get('POSTAL CODE'),
          country: location.country,
          full: location.full,
        });
      }
    } else if (type === 'gender') {
      draft.setGender(detailText);
    } else if (type === 'title') {
      draft.addPosition(detailText);
    } else if (type === 'vessel flag' || type === 'nationality of registration') {
      draft.flag ??= location?.country ?? toIso2(detailText);
    } else if (detailText) {
      const idType = ofacIdentifierType(featureType);
      if (idType === 'crypto-address') {
        draft.addIdentifier({
          type: idType,
          value: detailText,
          note: featureType.replace(/^Digital Currency Address - /i, ''),
        });
      } else if (
        ['email', 'website', 'phone', 'swift-bic', 'mmsi', 'call-sign'].includes(idType) ||
        type === 'vessel call sign'
      ) {
        draft.addIdentifier({
          type: type === 'vessel call sign' ? 'call-sign' : idType,
          value: detailText,
          note: featureType,
        });
      }
    }
  }
}

function readParty(party: XmlElement, context: PartyContext): EntityDraft | undefined {
  const fixedRef = clean(party.attrs['FixedRef']);
  const profile = child(party, 'Profile');
  if (!fixedRef || !profile) return undefined;
  const draft = new EntityDraft(context.listId, fixedRef, partyType(context.tables, profile.attrs['PartySubTypeID']));
  const identities = childrenNamed(profile, 'Identity');
  // The primary identity first, so its primary alias becomes the entity's primary name.
  identities.sort((a, b) => Number(b.attrs['Primary'] === 'true') - Number(a.attrs['Primary'] === 'true'));
  for (const identity of identities) {
    addNames(draft, identity, context);
    for (const doc of context.documentsByIdentity.get(identity.attrs['ID'] ?? '') ?? []) {
      const label = refText(context.tables, 'IDRegDocType', doc.attrs['IDRegDocTypeID']);
      const number = childText(doc, 'IDRegistrationNo');
      const idType = ofacIdentifierType(label);
      if (!number) continue;
      draft.addIdentifier({
        ...normaliseIdentifier(idType, number),
        country: countryOf(context.tables, doc.attrs['IssuedBy-CountryID']),
        note: label,
      });
    }
  }
  for (const feature of childrenNamed(profile, 'Feature')) addFeature(draft, feature, context);
  for (const comment of [...childrenNamed(party, 'Comment'), ...childrenNamed(profile, 'Comment')])
    draft.addRemarks(comment.text);
  draft.sourceUrl = `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${fixedRef}`;
  return draft;
}

const SECTIONS = new Set(['ReferenceValueSets', 'Locations', 'IDRegDocuments', 'DistinctParties', 'SanctionsEntries']);

/** Parse OFAC SDN_ADVANCED.XML into entities, in the order of DistinctParties. */
export async function parseOfacAdvancedXml(bytes: ByteStream, listId: ListId = 'ofac-sdn'): Promise<Entity[]> {
  const context: PartyContext = { tables: new Map(), locations: new Map(), documentsByIdentity: new Map(), listId };
  const drafts: EntityDraft[] = [];
  const draftByProfile = new Map<string, EntityDraft>();
  const isRecord = (_name: string, depth: number, parent: string | undefined): boolean =>
    depth === 2 && SECTIONS.has(parent ?? '');

  for await (const element of readXmlRecords(decodeStream(bytes), isRecord)) {
    switch (element.name) {
      case 'Location': {
        const id = element.attrs['ID'];
        if (id) context.locations.set(id, readLocation(element, context.tables));
        break;
      }
      case 'IDRegDocument': {
        const identityId = element.attrs['IdentityID'];
        if (!identityId) break;
        const list = context.documentsByIdentity.get(identityId) ?? [];
        list.push(element);
        context.documentsByIdentity.set(identityId, list);
        break;
      }
      case 'DistinctParty': {
        const draft = readParty(element, context);
        if (!draft) break;
        drafts.push(draft);
        const profileId = child(element, 'Profile')?.attrs['ID'];
        if (profileId) draftByProfile.set(profileId, draft);
        break;
      }
      case 'SanctionsEntry': {
        const draft = draftByProfile.get(element.attrs['ProfileID'] ?? '');
        if (!draft) break;
        for (const measure of childrenNamed(element, 'SanctionsMeasure')) {
          const measureType = refText(context.tables, 'SanctionsType', measure.attrs['SanctionsTypeID']).toLowerCase();
          if (measureType === 'program' || !measureType) draft.addProgram(childText(measure, 'Comment'));
        }
        for (const event of childrenNamed(element, 'EntryEvent')) draft.setListedOn(dateOf(child(event, 'Date')));
        break;
      }
      default:
        if (element.name.endsWith('Values')) readTable(element, context.tables);
    }
  }
  const out: Entity[] = [];
  for (const draft of drafts) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}
