import { COUNTRY_VARIANTS } from './country-variants.js';
import { ISO_COUNTRIES } from './iso-countries.js';

// Country names as the lists write them ("Korea, North", "Iran (Islamic Republic of)",
// "Afghan", "Pakistan (as at Apr 2009)", "(1) Somali (2) Swedish") resolved to ISO 3166-1
// alpha-2. The matching engine uses the same functions for the country of a query, so a
// query's "Russia", "RUS" or "ru" lands on the code the lists carry.

/** Lower-case, no diacritics, no dots or apostrophes, other punctuation as spaces. */
export function countryKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

const INDEX: ReadonlyMap<string, string> = buildIndex();
const CODES: ReadonlySet<string> = new Set(ISO_COUNTRIES.map((row) => row[0]).concat(['XK']));
const ENGLISH_NAME: ReadonlyMap<string, string> = new Map(
  ISO_COUNTRIES.map((row) => [row[0], row[2] ?? row[0]] as const).concat([['XK', 'Kosovo']]),
);

function buildIndex(): Map<string, string> {
  const index = new Map<string, string>();
  const add = (name: string, code: string): void => {
    const key = countryKey(name);
    // The first claim wins: ISO names go in before variants, so a variant never steals an ISO name.
    if (key && !index.has(key)) index.set(key, code);
  };
  for (const [alpha2, alpha3, ...names] of ISO_COUNTRIES) {
    add(alpha2, alpha2);
    add(alpha3, alpha2);
    for (const name of names) {
      add(name, alpha2);
      // "Korea, Republic of" is also written "Republic of Korea".
      const comma = name.indexOf(', ');
      if (comma > 0) add(`${name.slice(comma + 2)} ${name.slice(0, comma)}`, alpha2);
    }
  }
  for (const [code, names] of Object.entries(COUNTRY_VARIANTS)) {
    for (const name of names) add(name, code);
  }
  return index;
}

// Values the lists use for "unknown"; "na" in lower case is the UN's, while "NA" is Namibia.
const JUNK = new Set(['na', 'n/a', 'n.a.', 'nil', 'none', 'unknown', '-', '--', '-0-', 'stateless']);

const QUALIFIER_PREFIX =
  /^(?:possibly|probably|reportedly|allegedly|believed to be|former|formerly|now|alt|also|born in|in|of|a|an|dual|region)\s+/;
// "Kazakh SSR" is read as its successor state, Kazakhstan.
const QUALIFIER_SUFFIX =
  /\s+(?:citizenship|citizen|nationality|nationalities|national|nationals|passport|by birth|origin|descent|revoked|withdrawn|autonomous ssr|ssr|soviet socialist republic)(?:\s.*)?$/;
const TIME_SUFFIX =
  /\s+(?:as at|as of|since|from|until|between|in|at time|previous|previously|formerly|reportedly)\b.*$/;

/**
 * One country name, code or demonym → ISO 3166-1 alpha-2, or undefined when it is not a
 * country (or not only one). Accepts alpha-2 and alpha-3 codes in any case.
 */
export function toIso2(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  // The lists repeat the same few hundred country strings tens of thousands of times.
  const cached = TO_ISO2_CACHE.get(text);
  if (cached !== undefined) return cached || undefined;
  const code = resolveCountry(text);
  remember(TO_ISO2_CACHE, text, code ?? '');
  return code;
}

const CACHE_LIMIT = 20_000;
const TO_ISO2_CACHE = new Map<string, string>();
const COUNTRIES_IN_CACHE = new Map<string, readonly string[]>();

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

function resolveCountry(text: string): string | undefined {
  const raw = text.trim();
  if (!raw || JUNK.has(raw) || (JUNK.has(raw.toLowerCase()) && raw !== 'NA')) return undefined;
  const key = countryKey(raw);
  const direct = INDEX.get(key);
  if (direct) return direct;

  // "Pakistan (as at Apr 2009)", "Iran (Islamic Republic of.)"
  const noParens = countryKey(raw.replace(/\([^)]*\)?/g, ' '));
  if (noParens && noParens !== key) {
    const hit = INDEX.get(noParens);
    if (hit) return hit;
  }
  let trimmed = noParens || key;
  for (let i = 0; i < 3; i++) {
    const next = trimmed.replace(QUALIFIER_PREFIX, '').replace(QUALIFIER_SUFFIX, '').replace(TIME_SUFFIX, '').trim();
    if (next === trimmed) break;
    trimmed = next;
    const hit = INDEX.get(trimmed);
    if (hit) return hit;
  }
  // "Latakia Province, Syria": a place, then its country.
  const comma = raw.lastIndexOf(',');
  if (comma > 0) {
    const tail = raw.slice(comma + 1);
    if (tail.trim()) return toIso2(tail);
  }
  return undefined;
}

// "(1)", "1)", "(a)", "a)", "(1)-(2)", "(1) to (6)", "(i)"
const ENUMERATION = /\(?\b(?:\d{1,2}|[a-h]|i{1,3}|iv|v)\)(?:\s*(?:-|to)\s*\(?\d{1,2}\))?/gi;

/**
 * Every country named in a free-text field such as "(1) Somali (2) Swedish",
 * "1) Saudi Arabia 2) Qatar", "DRC and Belgian nationalities", "a) French, b) Tunisian".
 * Unique codes, in order of appearance.
 */
export function countriesIn(text: string | undefined | null): string[] {
  if (!text) return [];
  const cached = COUNTRIES_IN_CACHE.get(text);
  if (cached) return [...cached];
  const codes = findCountries(text);
  remember(COUNTRIES_IN_CACHE, text, codes);
  return [...codes];
}

function findCountries(text: string): string[] {
  const out: string[] = [];
  const push = (code: string | undefined): boolean => {
    if (!code) return false;
    if (!out.includes(code)) out.push(code);
    return true;
  };
  for (const piece of text.replace(ENUMERATION, '|').split(/[|;\n]|\.\s+/)) {
    const p = piece.trim().replace(/^[,.:\s-]+|[,.:\s-]+$/g, '');
    if (!p) continue;
    // A whole name first ("Bosnia and Herzegovina", "Korea, North"), then its parts
    // ("Iranian national and US national/citizen"), then the lenient reading of the whole.
    if (push(strictLookup(p))) continue;
    const parts = p.split(/,|\/|\s+and\s+|\s+or\s+|\s+&\s+/);
    let found = false;
    if (parts.length > 1) for (const sub of parts) found = push(toIso2(sub)) || found;
    if (!found) push(toIso2(p));
  }
  return out;
}

/** An exact name, code or demonym, allowing only a trailing parenthesis ("Pakistan (as at 2009)"). */
function strictLookup(text: string): string | undefined {
  return INDEX.get(countryKey(text)) ?? INDEX.get(countryKey(text.replace(/\([^)]*\)?/g, ' ')));
}

/** Whether a string is an assigned alpha-2 code (upper case), including XK for Kosovo. */
export function isIso2(code: string): boolean {
  return CODES.has(code);
}

/** A source's alpha-2 code field ("ru", "RU", " GB ") → upper-case code, or undefined if unknown. */
export function normaliseIso2(code: string | undefined | null): string | undefined {
  if (!code) return undefined;
  const upper = code.trim().toUpperCase();
  if (upper === 'UK') return 'GB';
  return CODES.has(upper) ? upper : undefined;
}

/** The English short name of an alpha-2 code, for display. */
export function countryName(code: string): string | undefined {
  return ENGLISH_NAME.get(code.toUpperCase());
}
