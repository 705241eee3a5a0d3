import type { Address, Entity, EntityName, EntityType, Identifier, ListId, NameParts, PartialDate } from './entity.js';
import { countriesIn, toIso2 } from './countries/countries.js';
import { detectScript } from './scripts.js';

// Every parser fills one draft per listed party and turns it into an Entity at the end. The
// draft owns the rules all sources share: whitespace is collapsed, names are de-duplicated
// case-insensitively with the strongest strength kept, non-Latin names get their script, and
// every list keeps insertion order so the output is deterministic.

const STRENGTH_RANK: Readonly<Record<EntityName['strength'], number>> = { primary: 3, strong: 2, weak: 1 };

// Any whitespace other than a single inner space; most fields have none, and testing is far
// cheaper than replacing on the hundreds of thousands of fields a full load cleans.
const UNCLEAN = /[^\S ]|[\u200b\ufeff]| {2}|^ | $/;

// The last result, because long texts (remarks) are often cleaned again by the next step.
let lastClean = '';

/** Collapse runs of whitespace (including non-breaking spaces) and trim. */
export function clean(text: string | undefined | null): string {
  if (!text) return '';
  if (text === lastClean) return text;
  lastClean = UNCLEAN.test(text) ? text.replace(/[\s\u200b\ufeff]+/g, ' ').trim() : text;
  return lastClean;
}

export type NameOptions = { kind?: string; parts?: NameParts; script?: string };

export class EntityDraft {
  readonly listId: ListId;
  readonly sourceId: string;
  type: EntityType;
  typeInferred = false;
  private readonly names: EntityName[] = [];
  // Lower-cased full names, parallel to `names`; entities have few names, so a scan is cheapest.
  private readonly nameKeys: string[] = [];
  private birthDates: PartialDate[] | undefined;
  private birthPlaces: string[] | undefined;
  private nationalities: string[] | undefined;
  private citizenships: string[] | undefined;
  private readonly addresses: Address[] = [];
  private readonly addressKeys: string[] = [];
  private readonly identifiers: Identifier[] = [];
  private readonly identifierKeys: string[] = [];
  private programs: string[] | undefined;
  private positions: string[] | undefined;
  private linkedTo: string[] | undefined;
  private datasets: string[] | undefined;
  private readonly remarks: string[] = [];
  listedOn: PartialDate | undefined;
  sourceUrl: string | undefined;
  gender: 'male' | 'female' | undefined;
  flag: string | undefined;

  constructor(listId: ListId, sourceId: string, type: EntityType) {
    this.listId = listId;
    this.sourceId = sourceId;
    this.type = type;
  }

  get hasPrimaryName(): boolean {
    return this.names.some((n) => n.strength === 'primary');
  }

  /**
   * Add a name. A second primary becomes a strong alias; a name already present keeps its
   * place and takes the stronger of the two strengths.
   */
  addName(fullName: string | undefined | null, strength: EntityName['strength'], options: NameOptions = {}): void {
    const full = clean(fullName);
    if (!full || !/[\p{L}\p{N}]/u.test(full)) return;
    if (strength === 'primary' && this.hasPrimaryName) strength = 'strong';
    const key = full.toLowerCase();
    const existing = this.nameKeys.indexOf(key);
    if (existing >= 0) {
      const name = this.names[existing];
      if (name && STRENGTH_RANK[strength] > STRENGTH_RANK[name.strength]) {
        name.strength = strength;
        if (strength === 'primary') this.moveToFront(existing);
      }
      if (name && !name.parts && options.parts) name.parts = options.parts;
      return;
    }
    const name: EntityName = { full, strength };
    if (options.kind) name.kind = options.kind;
    const parts = cleanParts(options.parts);
    if (parts) name.parts = parts;
    const script = options.script ?? detectScript(full);
    if (script) name.script = script;
    if (strength === 'primary') {
      this.names.unshift(name);
      this.nameKeys.unshift(key);
    } else {
      this.names.push(name);
      this.nameKeys.push(key);
    }
  }

  private moveToFront(index: number): void {
    const [name] = this.names.splice(index, 1);
    const [key] = this.nameKeys.splice(index, 1);
    if (name && key !== undefined) {
      this.names.unshift(name);
      this.nameKeys.unshift(key);
    }
  }

  addBirthDates(dates: Iterable<PartialDate | undefined>): void {
    for (const d of dates) if (d) this.birthDates = pushUnique(this.birthDates, d);
  }

  addBirthPlace(place: string | undefined | null): void {
    const p = clean(place).replace(/[.;,]+$/, '');
    if (p) this.birthPlaces = pushUnique(this.birthPlaces, p);
  }

  /** Add nationality codes; text is resolved with countriesIn ("(1) Somali (2) Swedish"). */
  addNationalityText(text: string | undefined | null): void {
    for (const code of countriesIn(text)) this.nationalities = pushUnique(this.nationalities, code);
  }

  addNationality(code: string | undefined): void {
    if (code) this.nationalities = pushUnique(this.nationalities, code);
  }

  addCitizenshipText(text: string | undefined | null): void {
    for (const code of countriesIn(text)) this.citizenships = pushUnique(this.citizenships, code);
  }

  addCitizenship(code: string | undefined): void {
    if (code) this.citizenships = pushUnique(this.citizenships, code);
  }

  /** Add an address; empty parts are dropped, `full` is composed when not given. */
  addAddress(address: Address & { countryText?: string }): void {
    const out: Address = {};
    const street = clean(address.street);
    const city = clean(address.city);
    const region = clean(address.region);
    const postalCode = clean(address.postalCode);
    const country = address.country ?? toIso2(address.countryText);
    if (street) out.street = street;
    if (city) out.city = city;
    if (region) out.region = region;
    if (postalCode) out.postalCode = postalCode;
    if (country) out.country = country;
    const full =
      clean(address.full) || [street, city, region, postalCode, clean(address.countryText)].filter(Boolean).join(', ');
    if (full) out.full = full;
    if (!full && !country) return;
    const key = `${out.full ?? ''}\u0000${out.country ?? ''}\u0000${out.street ?? ''}\u0000${out.city ?? ''}\u0000${out.region ?? ''}\u0000${out.postalCode ?? ''}`;
    if (this.addressKeys.includes(key)) return;
    this.addressKeys.push(key);
    this.addresses.push(out);
  }

  addIdentifier(identifier: {
    type: string;
    value: string | undefined | null;
    country?: string | undefined;
    note?: string | undefined;
    chain?: string | undefined;
  }): void {
    const value = clean(identifier.value).replace(/[.;,]+$/, '');
    if (!value) return;
    const out: Identifier = { type: identifier.type, value };
    const note = clean(identifier.note);
    // The lists name an address's chain by its ticker in the label ("Digital Currency Address - ETH").
    const chain =
      identifier.type === 'crypto-address'
        ? clean(identifier.chain) || /^[A-Za-z0-9]{2,10}$/.exec(note)?.[0]
        : undefined;
    if (chain) out.chain = chain.toUpperCase();
    if (identifier.country) out.country = identifier.country;
    if (note) out.note = note;
    const key = `${out.type}|${value.toUpperCase()}|${out.country ?? ''}`;
    if (this.identifierKeys.includes(key)) return;
    this.identifierKeys.push(key);
    this.identifiers.push(out);
  }

  addProgram(program: string | undefined | null): void {
    const p = clean(program);
    if (p) this.programs = pushUnique(this.programs, p);
  }

  addPosition(position: string | undefined | null): void {
    const p = clean(position).replace(/[.;,]+$/, '');
    if (p) this.positions = pushUnique(this.positions, p);
  }

  addLinkedTo(name: string | undefined | null): void {
    const n = clean(name).replace(/[.;]+$/, '');
    if (n) this.linkedTo = pushUnique(this.linkedTo, n);
  }

  addDataset(dataset: string | undefined | null): void {
    const d = clean(dataset);
    if (d) this.datasets = pushUnique(this.datasets, d);
  }

  addRemarks(text: string | undefined | null): void {
    const r = clean(text);
    if (r && !this.remarks.includes(r)) this.remarks.push(r);
  }

  /** Keep the earliest listing date seen. */
  setListedOn(date: PartialDate | undefined): void {
    if (date && (!this.listedOn || date < this.listedOn)) this.listedOn = date;
  }

  setGender(text: string | undefined | null): void {
    const g = clean(text).toLowerCase();
    if (g === 'male' || g === 'm') this.gender = 'male';
    else if (g === 'female' || g === 'f') this.gender = 'female';
  }

  /** The finished entity, or undefined when the source gave it no usable name. Call once: the entity takes over the draft's arrays. */
  build(): Entity | undefined {
    if (this.names.length === 0) return undefined;
    const names = this.names;
    // A record with only aliases still needs a primary name first.
    if (names[0] && names[0].strength !== 'primary') {
      const firstStrong = names.findIndex((n) => n.strength === 'strong');
      const index = firstStrong >= 0 ? firstStrong : 0;
      const [promoted] = names.splice(index, 1);
      if (promoted) names.unshift({ ...promoted, strength: 'primary' });
    }
    const entity: Entity = {
      listId: this.listId,
      sourceId: this.sourceId,
      type: this.type,
      names,
      birthDates: this.birthDates ?? [],
      birthPlaces: this.birthPlaces ?? [],
      nationalities: this.nationalities ?? [],
      citizenships: this.citizenships ?? [],
      addresses: this.addresses,
      identifiers: this.identifiers,
      programs: this.programs ?? [],
    };
    if (this.listedOn) entity.listedOn = this.listedOn;
    if (this.remarks.length > 0) entity.remarks = this.remarks.join(' ');
    if (this.sourceUrl) entity.sourceUrl = this.sourceUrl;
    if (this.datasets) entity.datasets = this.datasets;
    if (this.typeInferred) entity.typeInferred = true;
    if (this.gender && this.type === 'individual') entity.gender = this.gender;
    if (this.positions) entity.positions = this.positions;
    if (this.flag) entity.flag = this.flag;
    if (this.linkedTo) entity.linkedTo = this.linkedTo;
    return entity;
  }
}

// Most lists of most entities stay empty, so they are created on first use.
function pushUnique<T>(list: T[] | undefined, value: T): T[] {
  if (!list) return [value];
  if (!list.includes(value)) list.push(value);
  return list;
}

function cleanParts(parts: NameParts | undefined): NameParts | undefined {
  if (!parts) return undefined;
  const out: NameParts = {};
  for (const key of ['title', 'given', 'middle', 'patronymic', 'family'] as const) {
    const value = clean(parts[key]);
    if (value) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** "LAST, First Middle" (the OFAC and UN style for people) → parts, or undefined without a comma. */
export function splitCommaName(full: string): NameParts | undefined {
  const comma = full.indexOf(',');
  if (comma <= 0) return undefined;
  const family = clean(full.slice(0, comma));
  const given = clean(full.slice(comma + 1));
  if (!family || !given) return undefined;
  return { given, family };
}

// Words that only organisations' names carry. Used solely when a source does not say whether
// a record is a person (BIS DPL, part of CSL); the entity is then flagged typeInferred.
const ORGANISATION_WORDS = new Set(
  (
    'ltd limited llc inc incorporated corp corporation co company companies gmbh ag sa sas sarl srl spa bv nv plc ' +
    'jsc ojsc cjsc pjsc ooo oao zao ao fze fzco fzc fz dmcc pte pvt pty kg llp lp lda ltda sdn bhd tic as ' +
    'group holding holdings trading trade traders industries industry industrial international intl enterprise ' +
    'enterprises technology technologies tech electronics electronic engineering airlines airline airways ' +
    'aviation air aero aerospace shipping logistics freight cargo transport bank institute university academy ' +
    'center centre factory plant bureau ministry department organization organisation foundation association ' +
    'services service solutions systems supply supplies import export imports exports partners network networks ' +
    'research laboratory laboratories lab labs store stores shop office agency agencies committee council ' +
    'administration authority army forces force guard corps brigade front party movement society fund trust ' +
    'hospital clinic school college manufacturing products machinery equipment instruments components ' +
    'petroleum oil gas energy power chemical chemicals pharmaceutical pharma mining metals steel motors ' +
    'communications telecom media consulting consultants development construction investment investments ' +
    'capital finance financial exchange insurance'
  ).split(' '),
);

/** 'organization' when the name has an organisation word or a digit, else 'individual'. */
export function inferTypeFromName(name: string): EntityType {
  if (/\d/.test(name) || /&/.test(name)) return 'organization';
  for (const token of name
    .toLowerCase()
    .replace(/[.,()"'’/]/g, ' ')
    .split(/\s+/)) {
    if (ORGANISATION_WORDS.has(token)) return 'organization';
  }
  return 'individual';
}
