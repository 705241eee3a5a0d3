// Public API of @vigil/matching: the pure matching core (no I/O, no framework).
export { DEFAULT_CONFIG, resolveConfig, statusFor, tunablesFromThresholds } from './config.js';
export type { MatchingConfig, MatchStatus, QueryTunables } from './config.js';
export { SELECTABLE_ALGORITHMS, THRESHOLD_DEFAULTS } from './defaults.js';
export type { SelectableAlgorithm, ThresholdDefaults } from './defaults.js';
export {
  DEFAULT_ALGORITHM,
  VIGIL_V1,
  VIGIL_V2,
  VIGIL_V3,
  getAlgorithm,
  listAlgorithms,
  registerAlgorithm,
} from './algorithm.js';
export type { MatchingAlgorithm, Screener } from './algorithm.js';
export { CandidateIndex, compareMatches } from './index/candidate-index.js';
export type { IndexStats } from './index/candidate-index.js';
export { analyzeName, latinWords, wordFeatures } from './name/analyze.js';
export type { AnalyzedName, EntityTypeHint, NameForm, NameToken, TokenKind } from './name/analyze.js';
export {
  AlignScratch,
  compareNameForms,
  compareTokens,
  DEFAULT_NAME_PARAMS,
  newCompareContext,
  tokenWeight,
} from './name/compare.js';
export type {
  AlignedToken,
  CompareContext,
  NameComparison,
  NameParams,
  Rarity,
  TokenMethod,
  TokenSimilarity,
} from './name/compare.js';
export {
  countryEffect,
  dobEffect,
  normaliseEntityType,
  prepareEntity,
  prepareQuery,
  scoreEntity,
  scoreParamsFor,
  typeEffect,
} from './match/score-entity.js';
export type {
  EntityMatch,
  PreparedEntity,
  PreparedQuery,
  QualifierEffect,
  ScoreOptions,
  ScreeningQuery,
} from './match/score-entity.js';
export { toCountryCode } from './match/countries.js';
export { nameFeatures } from './features.js';
export type { NameFeatureForm, NameFeatures } from './features.js';
export { consonantSkeleton, transliterate } from './text/translit.js';
export type { TranslitSegment, TranslitVariant } from './text/translit.js';
export { equivalenceGroup, equivalentSpellings } from './text/equivalents.js';
export { boundedEditDistance, jaroWinkler, trigrams } from './similarity.js';
export { explainMatch } from './explain.js';
export { V1_POLICY, V2_POLICY, V3_POLICY } from './policy.js';
export type {
  AlignmentPolicy,
  AlignmentSpecificity,
  ContainmentPolicy,
  EntityPolicy,
  MatchPolicy,
  TokenScores,
} from './policy.js';
export { isLooseScript, looseKey } from './text/loose.js';
export { DEFAULT_RULES, V1_RULES, V2_RULES, V3_RULES } from './rules.js';
export type { EngineRules } from './rules.js';
