import type { PartialDate } from '../entity.js';
import { countriesIn, toIso2 } from '../countries/countries.js';
import { parseDateOrRange } from '../dates.js';
import { clean, type EntityDraft } from '../entity-draft.js';

// OFAC's legacy formats put most of a record in one "Remarks" string:
//   "DOB 12 Jul 1986; nationality China; Gender Male; Digital Currency Address - XBT 134r8…;
//    Passport 1084010 (Egypt) issued 2001; a.k.a. 'tianyinyin0404'; Linked To: LAZARUS GROUP."
// This splits it into the entity model. Quoted a.k.a.s here are OFAC's weak aliases (the
// strong ones are in alt.csv); "Linked To" names another party and is never an alias.

type IdentifierLabel = { label: string; type: string };

const IDENTIFIER_LABELS: readonly IdentifierLabel[] = [
  // identity documents
  { label: 'Passport Booklet', type: 'passport' },
  { label: 'Diplomatic Passport', type: 'passport' },
  { label: 'Passport', type: 'passport' },
  { label: 'National ID No.', type: 'national-id' },
  { label: 'National Foreign ID Number', type: 'national-id' },
  { label: 'Identification Number', type: 'national-id' },
  { label: 'Cedula No.', type: 'national-id' },
  { label: 'C.U.R.P. #', type: 'national-id' },
  { label: 'C.U.R.P.', type: 'national-id' },
  { label: 'D.N.I.', type: 'national-id' },
  { label: 'Personal ID Card', type: 'national-id' },
  { label: 'Kenyan ID No.', type: 'national-id' },
  { label: 'Turkish Identification Number', type: 'national-id' },
  { label: "Citizen's Card Number", type: 'national-id' },
  { label: 'Tazkira National ID Card', type: 'national-id' },
  { label: 'UAE Identification', type: 'national-id' },
  { label: 'SSN', type: 'national-id' },
  { label: 'I.F.E.', type: 'national-id' },
  { label: 'Credencial electoral', type: 'national-id' },
  { label: 'Electoral Registry No.', type: 'national-id' },
  { label: 'Numero de Identidad', type: 'national-id' },
  { label: 'LE Number', type: 'national-id' },
  { label: 'C.U.I.', type: 'national-id' },
  { label: 'Residency Number', type: 'national-id' },
  { label: 'Public Security and Immigration No.', type: 'national-id' },
  { label: 'Immigration No.', type: 'national-id' },
  { label: 'Birth Certificate Number', type: 'national-id' },
  { label: "Driver's License No.", type: 'national-id' },
  { label: 'Cartilla de Servicio Militar Nacional', type: 'national-id' },
  { label: 'Military Registration Number', type: 'national-id' },
  { label: 'Travel Document Number', type: 'other' },
  { label: 'VisaNumberID', type: 'other' },
  { label: 'SRE Permit No.', type: 'other' },
  { label: 'Permit Number', type: 'other' },
  // tax numbers
  { label: 'Tax ID No.', type: 'tax-id' },
  { label: 'R.F.C.', type: 'tax-id' },
  { label: 'RFC', type: 'tax-id' },
  { label: 'NIT #', type: 'tax-id' },
  { label: 'RUC #', type: 'tax-id' },
  { label: 'RIF #', type: 'tax-id' },
  { label: 'V.A.T. Number', type: 'tax-id' },
  { label: 'US FEIN', type: 'tax-id' },
  { label: 'Italian Fiscal Code', type: 'tax-id' },
  { label: 'C.U.I.T.', type: 'tax-id' },
  { label: 'C.I.F.', type: 'tax-id' },
  { label: 'RTN', type: 'tax-id' },
  { label: 'Numero Unico de Identificacao Tributaria (NUIT)', type: 'tax-id' },
  { label: 'Paraguayan tax identification number', type: 'tax-id' },
  // company registrations
  { label: 'Registration Number', type: 'registration' },
  { label: 'Registration ID', type: 'registration' },
  { label: 'UK Company Number', type: 'registration' },
  { label: 'Company Number', type: 'registration' },
  { label: 'Business Registration Number', type: 'registration' },
  { label: 'Business Registration Document #', type: 'registration' },
  { label: 'Business Number', type: 'registration' },
  { label: 'Commercial Registry Number', type: 'registration' },
  { label: 'Romanian C.R.', type: 'registration' },
  { label: 'C.R. No.', type: 'registration' },
  { label: 'Government Gazette Number', type: 'registration' },
  { label: 'Unified Social Credit Code (USCC)', type: 'registration' },
  { label: 'United Social Credit Code Certificate (USCCC)', type: 'registration' },
  { label: 'Chamber of Commerce Number', type: 'registration' },
  { label: 'Istanbul Chamber of Comm. No.', type: 'registration' },
  { label: 'Dubai Chamber of Commerce Membership No.', type: 'registration' },
  { label: 'Trade License No.', type: 'registration' },
  { label: 'License', type: 'registration' },
  { label: 'Certificate of Incorporation Number', type: 'registration' },
  { label: 'Enterprise Number', type: 'registration' },
  { label: 'Branch Unit Number', type: 'registration' },
  { label: 'Economic Register Number (CBLS)', type: 'registration' },
  { label: 'Folio Mercantil No.', type: 'registration' },
  { label: 'Matricula Mercantil No', type: 'registration' },
  { label: 'Central Registration System Number', type: 'registration' },
  { label: 'Public Registration Number', type: 'registration' },
  { label: 'Registered Charity No.', type: 'registration' },
  { label: 'Organization Code', type: 'registration' },
  { label: 'Afghan Money Service Provider License Number', type: 'registration' },
  { label: 'Legal Entity Number', type: 'lei' },
  { label: 'ISIN', type: 'isin' },
  { label: 'D-U-N-S Number', type: 'duns' },
  { label: 'SWIFT/BIC', type: 'swift-bic' },
  { label: 'BIK (RU)', type: 'other' },
  { label: 'Chinese Commercial Code', type: 'other' },
  // vessels and aircraft
  { label: 'Vessel Registration Identification', type: 'imo' },
  { label: 'MMSI', type: 'mmsi' },
  { label: "Aircraft Manufacturer's Serial Number (MSN)", type: 'aircraft-serial' },
  { label: 'Aircraft Construction Number (also called L/N or S/N or F/N)', type: 'aircraft-serial' },
  { label: 'Aircraft Serial Identification', type: 'aircraft-serial' },
  { label: 'Previous Aircraft Tail Number', type: 'aircraft-tail' },
  { label: 'Aircraft Tail Number', type: 'aircraft-tail' },
  { label: 'Aircraft Mode S Transponder Code', type: 'other' },
  // contact points
  { label: 'Email Address', type: 'email' },
  { label: 'Email', type: 'email' },
  { label: 'Website', type: 'website' },
  { label: 'Phone Number', type: 'phone' },
  { label: 'Phone No.', type: 'phone' },
  { label: 'Telephone No.', type: 'phone' },
  { label: 'Telephone', type: 'phone' },
].sort((a, b) => b.label.length - a.label.length);

/** Identifier type for an OFAC document label ("Passport", "Tax ID No.", "MMSI"), or 'other'. */
const TYPE_BY_LABEL: ReadonlyMap<string, string> = new Map(
  IDENTIFIER_LABELS.map((l) => [l.label.toLowerCase(), l.type]),
);

// Labels grouped by their first word, so a remark segment is compared with a handful of labels.
const LABELS_BY_FIRST_WORD: ReadonlyMap<string, readonly (IdentifierLabel & { lower: string })[]> = (() => {
  const map = new Map<string, (IdentifierLabel & { lower: string })[]>();
  for (const label of IDENTIFIER_LABELS) {
    const lower = label.label.toLowerCase();
    const first = lower.split(' ', 1)[0] ?? lower;
    map.set(first, [...(map.get(first) ?? []), { ...label, lower }]);
  }
  return map;
})();

export function ofacIdentifierType(label: string): string {
  const l = clean(label).replace(/:$/, '').toLowerCase();
  if (l.startsWith('digital currency address')) return 'crypto-address';
  return TYPE_BY_LABEL.get(l) ?? 'other';
}

function findLabel(segment: string): IdentifierLabel | undefined {
  const lower = segment.toLowerCase();
  const first = /^[^\s:]+/.exec(lower)?.[0] ?? '';
  for (const label of LABELS_BY_FIRST_WORD.get(first) ?? []) {
    if (lower.startsWith(label.lower) && /^[\s:#]|^$/.test(segment.slice(label.lower.length))) return label;
  }
  return undefined;
}

/**
 * An identifier's value as OFAC writes it: an IMO number ("IMO 9187629") is reduced to its
 * digits and typed 'imo' whatever its label ("Identification Number IMO 1234567").
 */
export function normaliseIdentifier(type: string, value: string): { type: string; value: string } {
  const imo = /^IMO\s*(\d{7})$/i.exec(value.trim());
  if (imo?.[1]) return { type: 'imo', value: imo[1] };
  return { type, value: value.trim() };
}

export type ParsedRemarks = {
  birthDates: PartialDate[];
  birthPlaces: string[];
  nationalities: string[];
  citizenships: string[];
  weakAliases: { name: string; kind: string }[];
  identifiers: { type: string; value: string; country?: string; note?: string }[];
  linkedTo: string[];
  gender?: 'male' | 'female';
  flag?: string;
};

const VALUE_END = /\s+\(|\s+(?:issued|expires|expiration|Issue Date|Expiration Date)\b/i;

function identifierFrom(label: IdentifierLabel, rest: string): ParsedRemarks['identifiers'][number] | undefined {
  const body = rest.replace(/^[:#\s]+/, '').replace(/[.;]+$/, '');
  if (!body) return undefined;
  const end = body.search(VALUE_END);
  const rawValue = (end < 0 ? body : body.slice(0, end)).trim();
  if (!rawValue) return undefined;
  const paren = /\(([^)]+)\)/.exec(end < 0 ? '' : body.slice(end));
  const { type, value } = normaliseIdentifier(label.type, rawValue);
  const out: ParsedRemarks['identifiers'][number] = { type, value, note: label.label };
  const country = paren?.[1] ? toIso2(paren[1]) : undefined;
  if (country) out.country = country;
  return out;
}

/** Split an OFAC remarks string into the facts it carries. */
export function parseOfacRemarks(remarks: string): ParsedRemarks {
  const out: ParsedRemarks = {
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    citizenships: [],
    weakAliases: [],
    identifiers: [],
    linkedTo: [],
  };
  const text = clean(remarks);
  if (!text) return out;
  for (const rawSegment of text.split(/;\s*(?=\S)/)) {
    const segment = rawSegment.trim().replace(/^alt\.\s+/i, '');
    let m: RegExpExecArray | null;
    if ((m = /^(a\.k\.a\.|f\.k\.a\.|n\.k\.a\.)\s+['‘’"](.+?)['‘’"]\.?$/i.exec(segment))) {
      const kind = (m[1] ?? 'a.k.a.').toLowerCase().replace(/\./g, '');
      if (m[2]) out.weakAliases.push({ name: m[2], kind });
      continue;
    }
    if ((m = /^Linked To:\s*(.+)$/i.exec(segment))) {
      out.linkedTo.push((m[1] ?? '').replace(/\.$/, ''));
      continue;
    }
    if ((m = /^DOB\s+(.+)$/i.exec(segment))) {
      out.birthDates.push(...parseDateOrRange(m[1]));
      continue;
    }
    if ((m = /^POB:?\s+(.+)$/i.exec(segment))) {
      out.birthPlaces.push((m[1] ?? '').replace(/\.$/, ''));
      continue;
    }
    if ((m = /^nationality\s+(?!of\s)(.+)$/i.exec(segment))) {
      out.nationalities.push(...countriesIn((m[1] ?? '').replace(/\.$/, '')));
      continue;
    }
    if ((m = /^citizen\s+(.+)$/i.exec(segment))) {
      out.citizenships.push(...countriesIn((m[1] ?? '').replace(/\.$/, '')));
      continue;
    }
    if ((m = /^Gender\s+(Male|Female)\b/i.exec(segment))) {
      out.gender = (m[1] ?? '').toLowerCase() === 'male' ? 'male' : 'female';
      continue;
    }
    if ((m = /^Nationality of Registration\s+(.+)$/i.exec(segment))) {
      out.flag ??= toIso2((m[1] ?? '').replace(/\.$/, ''));
      continue;
    }
    if ((m = /^Digital Currency Address - ([A-Za-z0-9]+)\s+(\S+?)\.?$/i.exec(segment))) {
      out.identifiers.push({ type: 'crypto-address', value: m[2] ?? '', note: m[1] ?? '' });
      continue;
    }
    const label = findLabel(segment);
    if (label) {
      const identifier = identifierFrom(label, segment.slice(label.label.length));
      if (identifier) out.identifiers.push(identifier);
    }
  }
  return out;
}

/** Copy parsed remarks into a draft; weak a.k.a.s become weak aliases. */
export function applyOfacRemarks(draft: EntityDraft, parsed: ParsedRemarks): void {
  draft.addBirthDates(parsed.birthDates);
  for (const place of parsed.birthPlaces) draft.addBirthPlace(place);
  for (const code of parsed.nationalities) draft.addNationality(code);
  for (const code of parsed.citizenships) draft.addCitizenship(code);
  for (const alias of parsed.weakAliases) draft.addName(alias.name, 'weak', { kind: alias.kind });
  for (const identifier of parsed.identifiers) draft.addIdentifier(identifier);
  for (const name of parsed.linkedTo) draft.addLinkedTo(name);
  if (parsed.gender) draft.gender = parsed.gender;
  if (parsed.flag && !draft.flag) draft.flag = parsed.flag;
}
