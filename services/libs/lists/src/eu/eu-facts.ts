import type { EntityType } from '../entity.js';
import { normaliseIso2, toIso2 } from '../countries/countries.js';
import { parseDate, partialDate, yearRange } from '../dates.js';
import { clean, type EntityDraft } from '../entity-draft.js';

// The EU Financial Sanctions File comes as XML (sanctionEntity with nameAlias, birthdate,
// citizenship, address and identification children) and as a flattened ";"-separated CSV
// (one row per child, columns "NameAlias_WholeName", "BirthDate_BirthDate", …). Both are read
// into these shapes so the rules live once.

export type EuName = {
  wholeName?: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  title?: string;
  function?: string;
  gender?: string;
  /** "false" marks a weak alias in the XML. */
  strong?: string;
};

export type EuBirth = {
  birthdate?: string;
  dayOfMonth?: string;
  monthOfYear?: string;
  year?: string;
  yearRangeFrom?: string;
  yearRangeTo?: string;
  city?: string;
  place?: string;
  region?: string;
  countryIso2Code?: string;
  countryDescription?: string;
};

export type EuAddress = {
  street?: string;
  poBox?: string;
  city?: string;
  zipCode?: string;
  region?: string;
  place?: string;
  countryIso2Code?: string;
  countryDescription?: string;
};

export type EuIdentification = {
  number?: string;
  latinNumber?: string;
  identificationTypeCode?: string;
  identificationTypeDescription?: string;
  countryIso2Code?: string;
  countryDescription?: string;
};

export type EuCitizenship = { countryIso2Code?: string; countryDescription?: string };

/** "person"/"P" → individual, "enterprise"/"E" → organization. */
export function euEntityType(code: string | undefined): EntityType {
  const c = clean(code).toLowerCase();
  return c === 'person' || c === 'p' ? 'individual' : 'organization';
}

// The EU writes "00" (and sometimes "ZZ") for an unknown country.
function euCountry(iso2: string | undefined, description: string | undefined): string | undefined {
  return normaliseIso2(iso2) ?? toIso2(description);
}

export function addEuName(draft: EntityDraft, name: EuName): void {
  const whole =
    clean(name.wholeName) || [name.firstName, name.middleName, name.lastName].map(clean).filter(Boolean).join(' ');
  if (!whole) return;
  const weak = clean(name.strong).toLowerCase() === 'false';
  const parts =
    draft.type === 'individual' && (clean(name.firstName) || clean(name.lastName))
      ? { title: name.title, given: name.firstName, middle: name.middleName, family: name.lastName }
      : undefined;
  // The EU marks no primary name; its first nameAlias is the one it lists under.
  draft.addName(whole, draft.hasPrimaryName ? (weak ? 'weak' : 'strong') : 'primary', {
    kind: draft.hasPrimaryName ? 'aka' : undefined,
    parts,
  });
  draft.setGender(name.gender);
  if (name.function) draft.addPosition(name.function);
}

export function addEuBirth(draft: EntityDraft, birth: EuBirth): void {
  const exact = parseDate(clean(birth.birthdate));
  if (exact) draft.addBirthDates([exact]);
  else {
    const year = Number(clean(birth.year)) || undefined;
    const from = Number(clean(birth.yearRangeFrom)) || undefined;
    const to = Number(clean(birth.yearRangeTo)) || undefined;
    if (year)
      draft.addBirthDates([
        partialDate(year, Number(clean(birth.monthOfYear)) || undefined, Number(clean(birth.dayOfMonth)) || undefined),
      ]);
    else if (from && to) draft.addBirthDates(yearRange(from, to));
    else if (from || to) draft.addBirthDates([String(from ?? to)]);
  }
  const country = clean(birth.countryDescription);
  const placeText = [
    clean(birth.city) || clean(birth.place),
    clean(birth.region),
    country && country !== 'UNKNOWN' ? country : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (placeText) draft.addBirthPlace(placeText);
}

export function addEuAddress(draft: EntityDraft, address: EuAddress): void {
  const country = euCountry(address.countryIso2Code, address.countryDescription);
  const street = [address.street, address.poBox ? `PO Box ${clean(address.poBox)}` : '']
    .map(clean)
    .filter(Boolean)
    .join(', ');
  const city = clean(address.city) || clean(address.place);
  const description = clean(address.countryDescription);
  draft.addAddress({
    street,
    city,
    region: address.region,
    postalCode: address.zipCode,
    country,
    full: [street, city, clean(address.region), clean(address.zipCode), description === 'UNKNOWN' ? '' : description]
      .filter(Boolean)
      .join(', '),
  });
}

const ID_TYPES: Readonly<Record<string, string>> = {
  passport: 'passport',
  id: 'national-id',
  nationalid: 'national-id',
  ssn: 'national-id',
  tin: 'tax-id',
  fiscalcode: 'tax-id',
  taxnumber: 'tax-id',
  regnumber: 'registration',
  registration: 'registration',
  swiftbic: 'swift-bic',
  imo: 'imo',
};

export function addEuIdentification(draft: EntityDraft, identification: EuIdentification): void {
  const value = clean(identification.latinNumber) || clean(identification.number);
  if (!value) return;
  const code = clean(identification.identificationTypeCode)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  draft.addIdentifier({
    type: ID_TYPES[code] ?? 'other',
    value,
    country: euCountry(identification.countryIso2Code, identification.countryDescription),
    note: identification.identificationTypeDescription,
  });
}

export function addEuCitizenship(draft: EntityDraft, citizenship: EuCitizenship): void {
  draft.addCitizenship(euCountry(citizenship.countryIso2Code, citizenship.countryDescription));
}
