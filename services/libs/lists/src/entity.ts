// The one entity model every parser produces and the matching core scores against.
// Fields mirror what the official lists actually carry; anything a source does not
// give stays absent rather than being guessed.

export type ListId =
  'ofac-sdn' | 'ofac-cons' | 'un-sc' | 'eu-fsf' | 'uk-hmt' | 'us-csl' | 'us-bis-dpl' | 'opensanctions';

export type EntityType = 'individual' | 'organization' | 'vessel' | 'aircraft';

/** A date as precise as the source gives it: "1957", "1957-03" or "1957-03-12". */
export type PartialDate = string;

export type NameParts = {
  given?: string;
  middle?: string;
  family?: string;
  patronymic?: string;
  title?: string;
};

export type EntityName = {
  full: string;
  /** Strong aliases are real names the party uses; weak ones (OFAC "weak a.k.a.", low-quality) are hints. */
  strength: 'primary' | 'strong' | 'weak';
  /** e.g. aka, fka, nka, original-script */
  kind?: string;
  parts?: NameParts;
  /** ISO 15924 script code when the name is not Latin, e.g. "Arab", "Cyrl". */
  script?: string;
};

export type Address = {
  street?: string;
  city?: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2 when resolvable */
  country?: string;
  full?: string;
};

export type Identifier = {
  /**
   * passport, national-id, tax-id, registration, imo, mmsi, call-sign, swift-bic, lei, isin,
   * duns, crypto-address, aircraft-serial, aircraft-tail, email, website, phone, other
   */
  type: string;
  value: string;
  /** crypto-address only: the chain's ticker as the list gives it (XBT, ETH, USDT, XMR…). */
  chain?: string;
  country?: string;
  note?: string;
};

export type Entity = {
  listId: ListId;
  /** The list's own stable reference (OFAC ent_num, UN REFERENCE_NUMBER, UK Group ID, FtM id, ...). */
  sourceId: string;
  type: EntityType;
  /** names[0] is the primary name. */
  names: EntityName[];
  birthDates: PartialDate[];
  birthPlaces: string[];
  /** ISO 3166-1 alpha-2 codes */
  nationalities: string[];
  citizenships: string[];
  addresses: Address[];
  identifiers: Identifier[];
  programs: string[];
  listedOn?: PartialDate;
  remarks?: string;
  sourceUrl?: string;
  /** For aggregated sources (CSL, OpenSanctions): the upstream dataset(s) the record came from. */
  datasets?: string[];
  /** Set when the source does not state the type (BIS DPL, parts of CSL) and it was inferred from the name. */
  typeInferred?: boolean;
  /** Individuals only, when the source states it. */
  gender?: 'male' | 'female';
  /** Titles, functions and designations ("Minister of Defence", "FDLR Interim President"). */
  positions?: string[];
  /** Vessels and aircraft: flag or registration country, ISO 3166-1 alpha-2. */
  flag?: string;
  /** Names of parties the source links this one to (OFAC "Linked To:"); not names of this party. */
  linkedTo?: string[];
};
