// @vigil/lists: pure parsers from the official sanctions-list formats to one entity model.
// No node:* imports here; the directory loader lives in the separate '@vigil/lists/node' entry.

export type { Address, Entity, EntityName, EntityType, Identifier, ListId, NameParts, PartialDate } from './entity.js';

export type { ByteStream, TextEncodingName } from './text/decode.js';
export { decodeAuto, decodeHead, decodeStream, readAllBytes } from './text/decode.js';

export type { FileFormat, FileRole, SourceFile, SourceFormat, SourceGroup } from './formats.js';
export { DETECT_HEAD_BYTES, detectFormat, groupSources } from './formats.js';
export type { OpenFile } from './parse-source.js';
export { parseSource } from './parse-source.js';

export type { OfacCsvFiles } from './ofac/ofac-csv.parser.js';
export { parseOfacCsv, splitOfacPrograms } from './ofac/ofac-csv.parser.js';
export type { ParsedRemarks } from './ofac/ofac-remarks.js';
export { parseOfacRemarks } from './ofac/ofac-remarks.js';
export { parseOfacXml } from './ofac/ofac-xml.parser.js';
export { parseOfacAdvancedXml } from './ofac/ofac-advanced.parser.js';
export { parseUnXml } from './un/un-xml.parser.js';
export { parseEuCsv } from './eu/eu-csv.parser.js';
export { parseEuXml } from './eu/eu-xml.parser.js';
export type { UkCsvVariant } from './uk/uk-csv.parser.js';
export { parseUkCsv, parseUkOfsiCsv, parseUkSanctionsListCsv } from './uk/uk-csv.parser.js';
export { parseCslCsv } from './csl/csl-csv.parser.js';
export { dplSourceId, parseDplTsv } from './dpl/dpl.parser.js';
export { parseFtmJsonLines } from './ftm/ftm.parser.js';

export { countriesIn, countryKey, countryName, isIso2, normaliseIso2, toIso2 } from './countries/countries.js';
export { ISO_COUNTRIES } from './countries/iso-countries.js';
export { COUNTRY_VARIANTS } from './countries/country-variants.js';
export type { DayOrder } from './dates.js';
export { parseDate, parseDateOrRange, parseIsoDate, partialDate } from './dates.js';
export { detectScript } from './scripts.js';
export { inferTypeFromName } from './entity-draft.js';
export type { IdentifierScheme } from './identifiers/identifier-schemes.js';
export {
  IDENTIFIER_SCHEMES,
  SCHEME_LABELS,
  identifierKey,
  identifierProblem,
  isIdentifierScheme,
  looksLikeCryptoAddress,
  normaliseIdentifierValue,
} from './identifiers/identifier-schemes.js';
export type { CryptoAddressReading, CryptoChecksum } from './identifiers/crypto-addresses.js';
export { eip55Checksummed, normaliseCryptoAddress, readCryptoAddress } from './identifiers/crypto-addresses.js';
export { ibanValid, imoCheckDigitValid, leiValid, mod97 } from './identifiers/check-digits.js';
