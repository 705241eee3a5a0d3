// Identifiers as evidence: the schemes screening compares exactly, each with the one spelling
// its values are indexed by and the checks its published definition allows.
import { ibanValid, imoCheckDigitValid, leiValid } from './check-digits.js';
import { normaliseCryptoAddress, readCryptoAddress } from './crypto-addresses.js';

/** The identifier schemes a screening can be asked about and the lists are indexed by. */
export const IDENTIFIER_SCHEMES = [
  'crypto-address',
  'imo',
  'mmsi',
  'passport',
  'national-id',
  'tax-id',
  'registration',
  'lei',
  'swift-bic',
  'iban',
] as const;
export type IdentifierScheme = (typeof IDENTIFIER_SCHEMES)[number];

const SCHEMES: ReadonlySet<string> = new Set(IDENTIFIER_SCHEMES);
export const isIdentifierScheme = (type: string): type is IdentifierScheme => SCHEMES.has(type);

/** How an analyst reads the scheme in an explanation ("IMO number", "passport number"). */
export const SCHEME_LABELS: Readonly<Record<IdentifierScheme, string>> = {
  'crypto-address': 'address',
  imo: 'IMO number',
  mmsi: 'MMSI',
  passport: 'passport number',
  'national-id': 'national ID number',
  'tax-id': 'tax number',
  registration: 'registration number',
  lei: 'LEI',
  'swift-bic': 'BIC',
  iban: 'IBAN',
};

/**
 * The spelling a value is indexed and looked up by. Document numbers drop the separators lists
 * and clients write differently ("AB 123-456" = "AB123456") and are upper-cased; a BIC's "XXX"
 * branch code is its head office, the same as the 8-character BIC.
 */
export function normaliseIdentifierValue(scheme: IdentifierScheme, value: string): string {
  const v = value.trim();
  switch (scheme) {
    case 'crypto-address':
      return normaliseCryptoAddress(v);
    case 'imo':
    case 'mmsi':
      return v.replace(/^IMO\b/i, '').replace(/\D/g, '');
    case 'swift-bic': {
      const bic = v.toUpperCase().replace(/[\s-]/g, '');
      return bic.length === 11 && bic.endsWith('XXX') ? bic.slice(0, 8) : bic;
    }
    default:
      return v.toUpperCase().replace(/[\s\-./]/g, '');
  }
}

/**
 * What is wrong with a value of this scheme, or undefined when it is well formed. Schemes with a
 * check digit are checked (IMO, LEI, IBAN, the address formats); document numbers, whose formats
 * differ by issuing country, only need to hold a digit or letter.
 */
export function identifierProblem(scheme: IdentifierScheme, value: string): string | undefined {
  const v = normaliseIdentifierValue(scheme, value);
  switch (scheme) {
    case 'crypto-address':
      // An unrecognised format may be a chain without a known checksum: it is looked up as written.
      if (!/^[A-Za-z0-9:]{20,120}$/.test(v)) return 'is not a digital-currency address';
      return readCryptoAddress(value)?.problem;
    case 'imo':
      return imoCheckDigitValid(v) ? undefined : 'is not an IMO number (7 digits with a valid check digit)';
    case 'mmsi':
      return /^\d{9}$/.test(v) ? undefined : 'is not an MMSI (9 digits)';
    case 'lei':
      return leiValid(v) ? undefined : 'is not an LEI (20 characters, ISO 7064 MOD 97-10 check digits)';
    case 'iban':
      return ibanValid(v) ? undefined : 'is not an IBAN (ISO 13616 check digits)';
    case 'swift-bic':
      return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(v) ? undefined : 'is not a BIC (8 or 11 characters)';
    default:
      return /^[A-Z0-9]{2,40}$/.test(v) ? undefined : 'is not a document number (2 to 40 letters and digits)';
  }
}

/** The exact-match key of an identifier: scheme and normalised value. */
export const identifierKey = (scheme: IdentifierScheme, value: string): string =>
  `${scheme}:${normaliseIdentifierValue(scheme, value)}`;

/**
 * A single token typed where a name was expected that may be a wallet address: a recognised
 * format (even with a bad checksum: a listed address is found as listed), or a long unbroken run
 * of letters and digits no name has (a chain whose format is not known here is still looked up).
 */
export function looksLikeCryptoAddress(text: string): boolean {
  const v = text.trim();
  if (!/^[A-Za-z0-9:]{25,120}$/.test(v)) return false;
  return readCryptoAddress(v) !== undefined || (/\d/.test(v) && /[A-Za-z]/.test(v));
}
