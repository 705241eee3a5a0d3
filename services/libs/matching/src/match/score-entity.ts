import type { Entity, EntityName, EntityType } from '@vigil/lists';
import { statusFor, type MatchStatus, type MatchingConfig } from '../config.js';
import { analyzeName, markBothWays, type AnalyzedName, type EntityTypeHint, type NameForm } from '../name/analyze.js';
import {
  AlignScratch,
  compareNameForms,
  isLegalFormText,
  round4,
  type AlignedToken,
  type CompareContext,
  type NameComparison,
  type NameParams,
  type Rarity,
} from '../name/compare.js';
import { toCountryCode } from './countries.js';
import { describeFinding } from '../text/hostile.js';
import { DEFAULT_RULES, type EngineRules } from '../rules.js';
import type { EntityPolicy } from '../policy.js';
import { isTwinName } from './twins.js';

export type ScreeningQuery = {
  name: string;
  /** "YYYY", "YYYY-MM" or "YYYY-MM-DD" */
  dob?: string;
  /** ISO-2 code or English country name */
  country?: string;
  entityType?: EntityType | 'person';
};

export type PreparedQuery = {
  query: ScreeningQuery;
  name: AnalyzedName;
  type?: EntityType;
  country?: string;
  dob?: string;
};

export type PreparedName = { name: EntityName; analyzed: AnalyzedName };

export type PreparedEntity = {
  entity: Entity;
  names: PreparedName[];
  countries: ReadonlySet<string>;
};

export type QualifierEffect = {
  /** invisibleCharacters, mixedScript: what reading the query as it is seen took (no effect on the score; an analyst sees the attempt). */
  /** extraTokens (v3): the query holds the whole list name and more words, each costing a little. */
  /** twinName (v3): the matched name is one another list publishes for the same party (match/twins.ts). */
  qualifier:
    | 'dob'
    | 'country'
    | 'entityType'
    | 'weakAlias'
    | 'evidence'
    | 'specificity'
    | 'extraTokens'
    | 'invisibleCharacters'
    | 'mixedScript'
    | 'twinName';
  /** Points added to (negative: taken from) the score. */
  effect: number;
  detail: string;
};

export type EntityMatch = {
  entity: Entity;
  score: number;
  status: MatchStatus;
  /** The list name or alias that matched best, as written on the list. */
  matchedName: string;
  /** Its index in `entity.names`. */
  nameIndex: number;
  matchedStrength: EntityName['strength'];
  /** Which reading of the names was compared (`latin`, `translit-cyrl`, `ko-mr`...). */
  queryScheme: string;
  listScheme: string;
  nameScore: number;
  tokens: AlignedToken[];
  unmatchedList: string[];
  qualifiers: QualifierEffect[];
  /** v2, a query not written in Latin script: the name as written and the reading that matched. */
  queryReading?: { written: string; read: string };
};

export function normaliseEntityType(t: string | undefined): EntityType | undefined {
  if (!t) return undefined;
  const v = t.trim().toLowerCase();
  if (v === 'person' || v === 'individual') return 'individual';
  if (v === 'organization' || v === 'organisation' || v === 'entity' || v === 'company') return 'organization';
  if (v === 'vessel' || v === 'aircraft') return v;
  return undefined;
}

function hasLegalForm(form: NameForm): boolean {
  const ts = form.tokens;
  if (ts.some((t) => t.kind === 'legal')) return true;
  // the short forms (S.A., AG, AS) are legal forms only at an edge of a longer name
  return ts.length >= 2 && ts[ts.length - 1]!.kind === 'word' && isLegalFormText(ts[ts.length - 1]!.text);
}

export function prepareQuery(query: ScreeningQuery, rules: EngineRules = DEFAULT_RULES): PreparedQuery {
  const type = normaliseEntityType(query.entityType);
  const dob = query.dob && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(query.dob.trim()) ? query.dob.trim() : undefined;
  const name = analyzeName(query.name, type as EntityTypeHint | undefined, undefined, rules, true);
  // v2: a name with a legal form ("… S.A.", "… LLC") is an organisation's, whatever the caller left out
  const inferred =
    type === undefined && rules.policy.alignment.specificity !== null && name.forms.some(hasLegalForm)
      ? 'organization'
      : type;
  return { query, name, type: inferred, country: toCountryCode(query.country), dob };
}

/** `borrowed`: names the record's twins publish (v3, match/twins.ts), scored after its own. */
export function prepareEntity(
  entity: Entity,
  rules: EngineRules = DEFAULT_RULES,
  borrowed: readonly EntityName[] = [],
): PreparedEntity {
  const names = (borrowed.length > 0 ? [...entity.names, ...borrowed] : entity.names)
    .filter((n) => n.full && n.full.trim())
    .map((name) => ({ name, analyzed: analyzeName(name.full, entity.type, name.parts?.family, rules) }));
  if (rules.policy.alignment.specificity !== null) markBothWays(names.map((n) => n.analyzed.forms));
  const countries = new Set<string>();
  for (const c of [...entity.nationalities, ...entity.citizenships, ...entity.addresses.map((a) => a.country ?? '')]) {
    const code = toCountryCode(c);
    if (code) countries.add(code);
  }
  return { entity, names, countries };
}

/**
 * How a date of birth on the query bears on the entity's dates: 1 to 3 when they agree (to the
 * year, month or day), 0 when only the year does, -1 one year off, -2 a contradiction, and
 * NaN when either side has no date.
 */
function dobVerdict(queryDob: string | undefined, entityDates: readonly string[]): number {
  if (!queryDob || entityDates.length === 0) return NaN;
  const q = queryDob.split('-').map(Number);
  let bestPrecision = -1;
  let sameYear = false;
  let minYearGap = Infinity;
  for (const raw of entityDates) {
    const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?/.exec(raw.trim());
    if (!m) continue;
    const e = [Number(m[1]), m[2] ? Number(m[2]) : undefined, m[3] ? Number(m[3]) : undefined];
    const gap = Math.abs(e[0]! - q[0]!);
    minYearGap = Math.min(minYearGap, gap);
    if (gap !== 0) continue;
    sameYear = true;
    let precision = 1;
    let ok = true;
    for (let k = 1; k < 3; k++) {
      if (q[k] === undefined || e[k] === undefined) break;
      if (q[k] !== e[k]) ok = false;
      else precision++;
    }
    if (ok) bestPrecision = Math.max(bestPrecision, precision);
  }
  if (minYearGap === Infinity) return NaN;
  if (bestPrecision >= 1) return bestPrecision;
  return sameYear ? 0 : minYearGap <= 1 ? -1 : -2;
}

function dobVerdictEffect(verdict: number, dob: EntityPolicy['dob']): number {
  return verdict === 3
    ? dob.day
    : verdict === 2
      ? dob.month
      : verdict === 1
        ? dob.year
        : verdict === 0
          ? dob.monthDiffers
          : verdict === -1
            ? dob.yearOff
            : dob.contradicts;
}

/** How a date of birth on the query bears on the entity's dates (0 when either has none). */
export function dobEffect(
  queryDob: string | undefined,
  entityDates: readonly string[],
  policy: EntityPolicy = DEFAULT_RULES.policy.entity,
): QualifierEffect | null {
  const verdict = dobVerdict(queryDob, entityDates);
  if (Number.isNaN(verdict)) return null;
  const effect = dobVerdictEffect(verdict, policy.dob);
  if (verdict >= 1)
    return {
      qualifier: 'dob',
      effect,
      detail: `date of birth ${queryDob} agrees with the list (${entityDates.join(', ')})`,
    };
  if (verdict === 0)
    return {
      qualifier: 'dob',
      effect,
      detail: `same birth year as the list but month or day differ (${entityDates.join(', ')})`,
    };
  if (verdict === -1)
    return { qualifier: 'dob', effect, detail: `date of birth one year off the list (${entityDates.join(', ')})` };
  return {
    qualifier: 'dob',
    effect,
    detail: `date of birth ${queryDob} contradicts the list (${entityDates.join(', ')})`,
  };
}

/** The country effect: the list has the query's country, or only others; NaN when either has none. */
function countryEffectValue(
  queryCountry: string | undefined,
  countries: ReadonlySet<string>,
  country: EntityPolicy['country'],
): number {
  if (!queryCountry || countries.size === 0) return NaN;
  return countries.has(queryCountry) ? country.agrees : country.differs;
}

export function countryEffect(
  queryCountry: string | undefined,
  countries: ReadonlySet<string>,
  policy: EntityPolicy = DEFAULT_RULES.policy.entity,
): QualifierEffect | null {
  const effect = countryEffectValue(queryCountry, countries, policy.country);
  if (Number.isNaN(effect)) return null;
  if (countries.has(queryCountry!))
    return { qualifier: 'country', effect, detail: `country ${queryCountry} is among the list's countries` };
  return {
    qualifier: 'country',
    effect,
    detail: `country ${queryCountry} is not among the list's countries (${[...countries].sort().join(', ')})`,
  };
}

function typeEffectValue(queryType: EntityType, entityType: EntityType, effects: EntityPolicy['entityType']): number {
  if (queryType === entityType) return 0;
  const personVsOther = queryType === 'individual' || entityType === 'individual';
  return personVsOther
    ? effects.person
    : queryType === 'organization' || entityType === 'organization'
      ? effects.organization
      : effects.other;
}

export function typeEffect(
  queryType: EntityType | undefined,
  entityType: EntityType,
  policy: EntityPolicy = DEFAULT_RULES.policy.entity,
): QualifierEffect | null {
  if (!queryType || queryType === entityType) return null;
  const effect = typeEffectValue(queryType, entityType, policy.entityType);
  return { qualifier: 'entityType', effect, detail: `query is ${queryType}, list entry is ${entityType}` };
}

/** Small names of common tokens carry less evidence than long rare ones: scale down, never up. */
function evidenceFactor(evidence: number, factor: EntityPolicy['evidenceFactor']): number {
  return factor.floor + (1 - factor.floor) * Math.min(1, evidence / factor.full);
}

/**
 * v3: a wholly held list name's score with its extra words priced (policy containment.extraWordPenalty
 * each: more than a one-letter slip in a short word costs, about 0.07, so a list name the query
 * matches whole but for a typo ranks above a shorter list name plus a word nothing explains): never
 * below review however many there are, as the name is rare enough to mean something (compare.ts
 * listFullyPresent), and never above what the name scored by itself.
 */
function withExtraWords(adjusted: number, cmp: NameComparison, config: MatchingConfig, penalty: number): number {
  return Math.max(adjusted - penalty * cmp.extras!, Math.min(config.mediumScore, adjusted));
}

export type ScoreOptions = {
  config: MatchingConfig;
  params?: NameParams;
  rarity?: Rarity;
  /** Only compare these name indexes (the index passes the names it retrieved); all when absent. */
  nameIndexes?: readonly number[];
  /** Memo shared by the candidates of one query. */
  context?: CompareContext;
  /** false: score only; `tokens` and `unmatchedList` come back empty (re-score the winners with true). */
  explain?: boolean;
};

/** extraEffect: what the query's extra words beside a wholly held list name did to the score (v3; 0 otherwise). */
type BestName = {
  adjusted: number;
  raw: number;
  factor: number;
  nameIdx: number;
  qf: NameForm;
  lf: NameForm;
  cmp: NameComparison;
  capped: number;
  why: string;
  extraEffect: number;
};

/** Words and numbers, not counting a legal form the analyser left as a word ("S.A." in a query of unknown type). */
function contentTokens(form: NameForm): number {
  let n = 0;
  for (const t of form.tokens) if ((t.kind === 'word' && !isLegalFormText(t.text)) || t.kind === 'number') n++;
  return n;
}

/** v2: a date of birth or a country that agrees with the list supports a name that proves little by itself. */
function supported(query: PreparedQuery, entity: PreparedEntity): boolean {
  if (query.dob && dobVerdict(query.dob, entity.entity.birthDates) >= 1) return true;
  return query.country !== undefined && entity.countries.has(query.country);
}

/**
 * v2's specificity rules on one name pair; returns the cap on its score (Infinity: none).
 * - A list name of one word ("HORIZON") inside a longer organisation name proves little: it
 *   cannot carry the query to review unless a country or date of birth supports it.
 * - Han read as Sino-Korean (ko-mr, ko-rr) stands for a Korean name: not against a list entry
 *   whose countries are all other than Korea's, so a Chinese name does not flag Chinese entries
 *   through their Korean-looking romanisations.
 */
function specificityCap(
  query: PreparedQuery,
  entity: PreparedEntity,
  qf: NameForm,
  lf: NameForm,
  cmp: NameComparison,
  config: MatchingConfig,
  margin: number,
): { cap: number; why: string } | null {
  if (
    qf.scheme.startsWith('ko-') &&
    qf.tokens.some((t) => t.script === 'Hani') &&
    entity.countries.size > 0 &&
    !entity.countries.has('KP') &&
    !entity.countries.has('KR')
  )
    return { cap: 0, why: '' };
  const cap = Math.max(0, config.mediumScore - margin);
  if (supported(query, entity)) return null;
  // v3: unless the query holds the whole list name, legal form included, and the word is rare (compare.ts listFullyPresent)
  if (
    entity.entity.type !== 'individual' &&
    query.type !== 'individual' &&
    contentTokens(lf) === 1 &&
    contentTokens(qf) >= 2 &&
    !(cmp.extras !== undefined && cmp.extras >= 0)
  ) {
    return {
      cap,
      why: 'the list name is a single word inside a longer name, and no country or date of birth supports it: kept below review',
    };
  }
  // - A person's name whose family name a Latin query lacks altogether (Li Na against Lina KINAYEH);
  //   across scripts a missing family name is more often a reading that failed.
  if (
    cmp.familyMissing === true &&
    entity.entity.type === 'individual' &&
    qf.scheme === 'latin' &&
    lf.scheme === 'latin'
  ) {
    return {
      cap,
      why: 'the family name on the list is not in the query, and no country or date of birth supports it: kept below review',
    };
  }
  return null;
}

/**
 * The forms of the names `nameIndexes` selects, and whether each is a weak alias, as the
 * index holds them: name k is `refs[k]` in `forms` and `weak` (1: weak), which cover every
 * indexed name, so the search reads them without walking the entity's objects.
 */
export type NameView = { refs: readonly number[]; forms: ReadonlyArray<readonly NameForm[]>; weak: Uint8Array };

/** The entity's best-matching name or alias for the query: the score-only search both scorers share. */
function bestName(
  query: PreparedQuery,
  entity: PreparedEntity,
  options: ScoreOptions,
  params: NameParams,
  scratch: AlignScratch | undefined,
  view?: NameView,
): BestName | null {
  let best: BestName | null = null;
  const ep = params.policy.entity;
  const margin = ep.specificityMargin;
  const weakAliasCap = ep.weakAliasCap;
  const evidence = ep.evidenceFactor;
  const containment = params.policy.alignment.containment;
  const indexes = options.nameIndexes ?? entity.names.map((_, i) => i);
  for (let k = 0; k < indexes.length; k++) {
    const ni = indexes[k]!;
    let listForms: readonly NameForm[];
    let weak: boolean;
    if (view) {
      const ref = view.refs[k]!;
      listForms = view.forms[ref]!;
      weak = view.weak[ref] === 1;
    } else {
      const pn = entity.names[ni];
      if (!pn) continue;
      listForms = pn.analyzed.forms;
      weak = pn.name.strength === 'weak';
    }
    for (const qf of query.name.forms) {
      for (const lf of listForms) {
        const cmp = compareNameForms(qf, lf, params, options.rarity, options.context, false, scratch);
        if (cmp.score <= 0) continue;
        const factor = evidenceFactor(cmp.evidence, evidence);
        let adjusted = cmp.score * factor;
        if (weak) adjusted = Math.min(adjusted, weakAliasCap);
        let extraEffect = 0;
        if (containment !== null && cmp.extras !== undefined && cmp.extras > 0) {
          const priced = withExtraWords(adjusted, cmp, options.config, containment.extraWordPenalty);
          extraEffect = priced - adjusted;
          adjusted = priced;
        }
        let capped = Infinity;
        let why = '';
        if (margin !== null) {
          const rule = specificityCap(query, entity, qf, lf, cmp, options.config, margin);
          if (rule && rule.cap === 0) continue;
          if (rule) {
            capped = rule.cap;
            why = rule.why;
            adjusted = Math.min(adjusted, capped);
          }
        }
        // ties: prefer the primary name, then strong aliases, then list order
        if (!best || adjusted > best.adjusted + 1e-12)
          best = { adjusted, raw: cmp.score, factor, nameIdx: ni, qf, lf, cmp, capped, why, extraEffect };
      }
    }
  }
  return best;
}

/**
 * The date of birth, country and entity-type effects, in that order. The entity's record is
 * only read for a qualifier the query has: most queries carry none, and it is rarely in cache.
 */
function qualifierEffects(
  query: PreparedQuery,
  entity: PreparedEntity,
  out: QualifierEffect[],
  policy: EntityPolicy,
): void {
  const dob = query.dob ? dobEffect(query.dob, entity.entity.birthDates, policy) : null;
  if (dob) out.push(dob);
  const country = query.country ? countryEffect(query.country, entity.countries, policy) : null;
  if (country) out.push(country);
  const type = query.type ? typeEffect(query.type, entity.entity.type, policy) : null;
  if (type) out.push(type);
}

/**
 * `score` plus the effects qualifierEffects lists, added in its order, without writing their
 * details: the index ranks every candidate with this and explains only the ones it returns.
 */
function withQualifierEffects(
  score: number,
  query: PreparedQuery,
  entity: PreparedEntity,
  policy: EntityPolicy,
): number {
  const dob = query.dob ? dobVerdict(query.dob, entity.entity.birthDates) : NaN;
  if (!Number.isNaN(dob)) score += dobVerdictEffect(dob, policy.dob);
  const country = countryEffectValue(query.country, entity.countries, policy.country);
  if (!Number.isNaN(country)) score += country;
  if (query.type && query.type !== entity.entity.type)
    score += typeEffectValue(query.type, entity.entity.type, policy.entityType);
  return score;
}

const clampScore = (score: number): number => round4(Math.max(0, Math.min(1, score)));

function finalScore(adjusted: number, qualifiers: readonly QualifierEffect[], from: number): number {
  let score = adjusted;
  for (let k = from; k < qualifiers.length; k++) score += qualifiers[k]!.effect;
  return clampScore(score);
}

/**
 * The name parameters of an algorithm's rules: what a caller that retrieves its own candidates (the
 * search-index engine) scores with, matching the rules it prepared the query and entities with.
 */
export function scoreParamsFor(rules: EngineRules, config: Pick<MatchingConfig, 'levDistanceMax'>): NameParams {
  return { levDistanceMax: config.levDistanceMax, policy: rules.policy };
}

/** Callers that pass no params (tests) score with the default algorithm's rules, as they prepared with them. */
function defaultParams(options: ScoreOptions): NameParams {
  return options.params ?? scoreParamsFor(DEFAULT_RULES, options.config);
}

/** A caller without a context (the search-index engine, tests) aligns one entity's names in a scratch of its own. */
function scratchFor(options: ScoreOptions): AlignScratch | undefined {
  return options.context ? undefined : new AlignScratch();
}

/**
 * The score `scoreEntity` gives and the name it matched, without building the match: the
 * index ranks its candidates with this and builds matches for the ones it returns.
 */
export function entityScore(
  query: PreparedQuery,
  entity: PreparedEntity,
  options: ScoreOptions,
  view?: NameView,
): { score: number; nameIndex: number } | null {
  const params = defaultParams(options);
  const best = bestName(query, entity, options, params, scratchFor(options), view);
  if (!best) return null;
  return {
    score: clampScore(withQualifierEffects(best.adjusted, query, entity, params.policy.entity)),
    nameIndex: best.nameIdx,
  };
}

function extraWordsDetail(cmp: NameComparison, effect: number, penalty: number): string {
  const words = cmp.tokens.filter((t) => t.method === 'extra').map((t) => t.query.join(' '));
  const n = cmp.extras!;
  const priced = `the query holds the whole list name and ${n} more word${n === 1 ? '' : 's'} (${words.join(', ')}), ${penalty} each`;
  return effect > -penalty * n + 1e-9
    ? `${priced}; the name is rare enough to stay at review whatever is added`
    : priced;
}

/** Scores one entity for a query: best name or alias, then qualifiers. */
export function scoreEntity(query: PreparedQuery, entity: PreparedEntity, options: ScoreOptions): EntityMatch | null {
  const params = defaultParams(options);
  const ep = params.policy.entity;
  const weakAliasCap = ep.weakAliasCap;
  const explain = options.explain ?? true;
  const scratch = scratchFor(options);
  const best = bestName(query, entity, options, params, scratch);
  if (!best) return null;
  if (explain) best.cmp = compareNameForms(best.qf, best.lf, params, options.rarity, options.context, true, scratch);
  const qualifiers: QualifierEffect[] = [];
  const pn = entity.names[best.nameIdx]!;
  if (best.factor < 1)
    qualifiers.push({
      qualifier: 'evidence',
      effect: round4(best.raw * best.factor - best.raw),
      detail: 'few or common tokens matched: little evidence of identity',
    });
  if (pn.name.strength === 'weak' && best.raw * best.factor > weakAliasCap) {
    qualifiers.push({
      qualifier: 'weakAlias',
      effect: round4(weakAliasCap - best.raw * best.factor),
      detail: 'matched a weak alias: capped at review',
    });
  }
  let beforeCap = Math.min(best.raw * best.factor, pn.name.strength === 'weak' ? weakAliasCap : Infinity);
  if (best.cmp.extras !== undefined && best.cmp.extras > 0) {
    qualifiers.push({
      qualifier: 'extraTokens',
      effect: round4(best.extraEffect),
      detail: extraWordsDetail(best.cmp, best.extraEffect, params.policy.alignment.containment!.extraWordPenalty),
    });
    beforeCap += best.extraEffect;
  }
  if (best.capped < beforeCap) {
    qualifiers.push({ qualifier: 'specificity', effect: round4(best.capped - beforeCap), detail: best.why });
  }
  if (isTwinName(pn.name)) {
    const { listId, sourceId } = pn.name.twinOf;
    qualifiers.push({
      qualifier: 'twinName',
      effect: 0,
      detail: `name ${listId} ${sourceId} gives the same party; this list publishes it in Latin letters only`,
    });
  }
  const named = qualifiers.length;
  qualifierEffects(query, entity, qualifiers, ep);
  const score = finalScore(best.adjusted, qualifiers, named);
  if (query.name.findings) {
    for (const f of query.name.findings)
      qualifiers.push({
        qualifier: f.kind === 'invisible' ? 'invisibleCharacters' : 'mixedScript',
        effect: 0,
        detail: describeFinding(f),
      });
  }
  return {
    entity: entity.entity,
    score,
    status: statusFor(score, options.config),
    matchedName: pn.name.full,
    nameIndex: best.nameIdx,
    matchedStrength: pn.name.strength,
    queryScheme: best.qf.scheme,
    listScheme: best.lf.scheme,
    nameScore: round4(best.raw),
    tokens: best.cmp.tokens,
    unmatchedList: best.cmp.unmatchedList,
    qualifiers,
    ...(params.policy.explainReadings && best.qf.scheme !== 'latin'
      ? { queryReading: { written: query.query.name, read: best.qf.tokens.map((t) => t.text).join(' ') } }
      : {}),
  };
}
