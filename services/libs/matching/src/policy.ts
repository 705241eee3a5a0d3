import type { TokenKind } from './name/analyze.js';

// Every number the matching core decides with, one table per algorithm version. The code that
// applies them (name/compare.ts, match/score-entity.ts) reads "which policy" and holds no score of
// its own; a feature a version lacks is a null section, not a flag tested beside the numbers.
// Changing a number in a frozen version's table changes its golden results (src/cli/golden-v*.spec.ts):
// new behaviour goes into a new version's table.

export type TokenMethod = 'exact' | 'equivalent' | 'transliterated' | 'phonetic' | 'fuzzy' | 'initial';

/** Read-only: the common outcomes are shared objects, as most token pairs of a query are unrelated. */
export type TokenSimilarity = { readonly score: number; readonly method: TokenMethod };

/** How well two tokens agree, by rule (compareTokens). */
export type TokenScores = {
  /** Legal forms of one family (OAO, JSC) and weak words of one equivalence group. */
  readonly equivalent: TokenSimilarity;
  /** Two legal forms of different families: related, far from equal. */
  readonly otherLegalFamily: TokenSimilarity;
  /** A misspelt legal form ("Companny") within the edit budget. */
  readonly misspeltLegalForm: TokenSimilarity;
  /** A one-letter initial against a name starting with it. */
  readonly initial: TokenSimilarity;
  /** Two words of one name-equivalence group (Mohammed, Muhammad). */
  readonly variant: number;
  /** Consonant skeletons across an abjad script: equal (one letter / longer), equal coarse classes, one edit on 4+. */
  readonly skeleton: {
    readonly sameLetter: number;
    readonly same: number;
    readonly coarse: number;
    readonly oneEdit: number;
  };
  /** A Latin word whose equivalence group holds the abjad word's skeleton (Faycal is Faisal). */
  readonly variantSkeleton: number;
  /** Below this Jaro-Winkler no spelling or sound rule applies. */
  readonly jaroWinklerFloor: number;
  /** Within the edit budget: this Jaro-Winkler at least, scored 0.5 JW + 0.5 (1 - d/len). */
  readonly fuzzyMinJaroWinkler: number;
  /** One edit that only doubles or undoubles a letter. */
  readonly doubledLetter: number;
  /** Double Metaphone agreement: base within the edit budget, base beyond it (from this JW), plus jwShare × JW. */
  readonly phonetic: {
    readonly withinBudget: number;
    readonly beyondBudget: number;
    readonly beyondMinJaroWinkler: number;
    readonly jwShare: number;
  };
  /** Factor on spelling and sound scores when the first letters differ: rarer as a typo than as another name. */
  readonly otherFirstLetter: number;
  /** One edit past the budget with the same first letter: neither for nor against much. */
  readonly uncertain: number;
  /** Edit budget by the longer token's length: none up to the first bound, then one more past each. */
  readonly editBudgetBounds: readonly [number, number, number];
  /** v2 readings: Greek, kana and Hebrew tokens against Latin on the loose consonant key (text/loose.ts). */
  readonly looseKey: { readonly same: number; readonly oneEdit: number; readonly oneEditMinLength: number } | null;
  /** v2: Han and Hangul syllables against Latin, whole only: same group, or same with Korean romanisation folded. */
  readonly syllable: { readonly variant: number; readonly koreanFold: number } | null;
  /** v2: a three-letter word one substitution after the first letter ("Som" for "Son"); v1 allows no edit there. */
  readonly shortTypo: number | null;
  /** v2: words up to this length whose first consonants sound nothing alike (Kalam, Salam) are not typos. */
  readonly consonantClashMaxLength: number | null;
};

/** How aligned tokens are weighed and what leftovers cost (compareNameForms). */
export type AlignmentPolicy = {
  /** Weight of a token by kind, before rarity. */
  readonly kindWeight: Readonly<Record<TokenKind, number>>;
  /** Weight of a generic company word or a one-letter word. */
  readonly weakWordWeight: number;
  /** A word's weight is kind × (rarityFloor + (1 - rarityFloor) × rarity). */
  readonly rarityFloor: number;
  /** Multiplier of family-name tokens. */
  readonly familyWeight: number;
  /** What a matched token proves: numbers, initials, other weak kinds, generic words; words scale from evidenceRarityFloor. */
  readonly evidence: {
    readonly number: number;
    readonly initial: number;
    readonly weakKind: number;
    readonly weakWord: number;
    readonly rarityFloor: number;
  };
  /** Weight multiplier of a query token the list name lacks (an extra middle name). */
  readonly extraQueryCost: number;
  /** Weight multiplier of a list token the query lacks (an omitted middle name: cheap). */
  readonly missingListCost: number;
  /** Weight multiplier of a list family-name token the query lacks (a different surname is not an omitted middle name). */
  readonly missingFamilyCost: number;
  /** Weight multiplier of a pair of leftover words that contradict each other... */
  readonly contradictionCost: number;
  /** ...times this when one of them is a number. */
  readonly numberContradiction: number;
  /** How similar a joined run must be to the one token it replaces: across an abjad script, otherwise. */
  readonly joinFloor: { readonly abjad: number; readonly other: number };
  /** A misspelt multi-word legal form against its phrase: above a single legal-form match, so the phrase is consumed. */
  readonly misspeltLegalPhrase: number;
  /** v2's specificity in the alignment (null: v1). */
  readonly specificity: AlignmentSpecificity | null;
  /** v3's containment (null: v1, v2). */
  readonly containment: ContainmentPolicy | null;
};

export type AlignmentSpecificity = {
  /** Joins across a word boundary count only as the same word (or where the list writes the name both ways). */
  readonly sameWordJoinsOnly: true;
  /** The part of a hyphenated surname the query lacks when it has the other part. */
  readonly missingCompoundCost: number;
  /** A list syllable a Han or Hangul query lacks, or one it adds. */
  readonly missingSyllableCost: number;
  /** A distinctive query word after a list name the query wholly contains. */
  readonly trailingExtraCost: number;
};

/** v3: a query holding a whole list name plus other words (compare.ts listFullyPresent, score-entity.ts withExtraWords). */
export type ContainmentPolicy = {
  /** List tokens the query must hold: words, of which one may be the legal form. */
  readonly minTokens: number;
  /** Rare enough: this much evidence (two uncommon words)... */
  readonly minEvidence: number;
  /** ...or one word the lists hardly share (evidence 0.9: rarity 0.875). */
  readonly distinctiveWordEvidence: number;
  /** What each extra word costs the name's score; it never takes it below review. */
  readonly extraWordPenalty: number;
};

/** What the rest of a query (date of birth, country, type) and the name's strength do to an entity's score. */
export type EntityPolicy = {
  /** Date of birth: agrees to the day, month, year; same year, other month; one year off; further off. */
  readonly dob: {
    readonly day: number;
    readonly month: number;
    readonly year: number;
    readonly monthDiffers: number;
    readonly yearOff: number;
    readonly contradicts: number;
  };
  readonly country: { readonly agrees: number; readonly differs: number };
  /** Entity type mismatch: a person against anything else, an organisation against a vessel or aircraft, vessel against aircraft. */
  readonly entityType: { readonly person: number; readonly organization: number; readonly other: number };
  /** A name's score × (floor + (1 - floor) × min(1, evidence / full)): few common tokens prove little. */
  readonly evidenceFactor: { readonly floor: number; readonly full: number };
  /** A weak alias never scores above this. */
  readonly weakAliasCap: number;
  /** v2: a name that proves little is capped this far below review (null: v1 has no such cap). */
  readonly specificityMargin: number | null;
};

/** An algorithm version's policy: its token scores, its alignment and its entity effects. */
export type MatchPolicy = {
  readonly tokens: TokenScores;
  readonly alignment: AlignmentPolicy;
  readonly entity: EntityPolicy;
  /** v2: explanations name the scripts of transliterated pairs and the query reading that matched. */
  readonly explainReadings: boolean;
};

const sim = (score: number, method: TokenMethod): TokenSimilarity => Object.freeze({ score, method });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const V1_POLICY: MatchPolicy = deepFreeze({
  tokens: {
    equivalent: sim(0.95, 'equivalent'),
    otherLegalFamily: sim(0.3, 'equivalent'),
    misspeltLegalForm: sim(0.85, 'fuzzy'),
    initial: sim(0.9, 'initial'),
    variant: 0.95,
    skeleton: { sameLetter: 0.8, same: 0.9, coarse: 0.8, oneEdit: 0.75 },
    variantSkeleton: 0.9,
    jaroWinklerFloor: 0.8,
    fuzzyMinJaroWinkler: 0.84,
    doubledLetter: 0.95,
    phonetic: { withinBudget: 0.8, beyondBudget: 0.7, beyondMinJaroWinkler: 0.86, jwShare: 0.15 },
    otherFirstLetter: 0.93,
    uncertain: 0.35,
    editBudgetBounds: [3, 7, 11],
    looseKey: null,
    syllable: null,
    shortTypo: null,
    consonantClashMaxLength: null,
  },
  alignment: {
    kindWeight: {
      word: 1,
      number: 1.5,
      initial: 0.35,
      legal: 0.15,
      particle: 0.2,
      stop: 0.1,
      honorific: 0.05,
      prefix: 0,
    },
    weakWordWeight: 0.35,
    rarityFloor: 0.35,
    familyWeight: 1.3,
    evidence: { number: 1, initial: 0.15, weakKind: 0.05, weakWord: 0.35, rarityFloor: 0.2 },
    extraQueryCost: 0.7,
    missingListCost: 0.25,
    missingFamilyCost: 0.6,
    contradictionCost: 2,
    numberContradiction: 1.5,
    joinFloor: { abjad: 0.8, other: 0.86 },
    misspeltLegalPhrase: 0.96,
    specificity: null,
    containment: null,
  },
  entity: {
    dob: { day: 0.05, month: 0.03, year: 0.02, monthDiffers: -0.05, yearOff: -0.08, contradicts: -0.2 },
    country: { agrees: 0.03, differs: -0.05 },
    entityType: { person: -0.3, organization: -0.1, other: -0.2 },
    evidenceFactor: { floor: 0.6, full: 1.6 },
    weakAliasCap: 0.8,
    specificityMargin: null,
  },
  explainReadings: false,
});

/** v1 plus the readings' loose keys and syllables, short typos, consonant clashes and the specificity costs and cap. */
export const V2_POLICY: MatchPolicy = deepFreeze({
  ...V1_POLICY,
  tokens: {
    ...V1_POLICY.tokens,
    looseKey: { same: 0.9, oneEdit: 0.8, oneEditMinLength: 4 },
    syllable: { variant: 0.95, koreanFold: 0.9 },
    shortTypo: 0.7,
    consonantClashMaxLength: 6,
  },
  alignment: {
    ...V1_POLICY.alignment,
    specificity: { sameWordJoinsOnly: true, missingCompoundCost: 1.2, missingSyllableCost: 2, trailingExtraCost: 2 },
  },
  entity: { ...V1_POLICY.entity, specificityMargin: 0.05 },
  explainReadings: true,
});

/** v2 plus containment. */
export const V3_POLICY: MatchPolicy = deepFreeze({
  ...V2_POLICY,
  alignment: {
    ...V2_POLICY.alignment,
    containment: { minTokens: 2, minEvidence: 1.6, distinctiveWordEvidence: 0.9, extraWordPenalty: 0.1 },
  },
});
