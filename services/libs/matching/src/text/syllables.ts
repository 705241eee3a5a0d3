// Han and Hangul romanised syllables (v2): every romanised token is a whole syllable, or a name
// of whole syllables, so it meets a Latin word only whole, never by edit distance.
import type { TokenScores } from '../policy.js';

const KOREAN_FOLDS: Record<string, string> = {
  eo: 'o',
  eu: 'u',
  ch: 'j',
  k: 'g',
  p: 'b',
  t: 'd',
  sh: 's',
  wo: 'o',
  ae: 'e',
  l: 'r',
};

/** Korean romanisations disagree on consonant voicing and on eo/o, eu/u (RR geon, McCune-Reischauer kon, lists Gon). */
export function koreanFold(text: string): string {
  return text.replace(/eo|eu|ch|sh|wo|ae|[kptl]/g, (m) => KOREAN_FOLDS[m]!);
}

/**
 * How a syllable read from Han or Hangul meets a Latin word, given their name-equivalence groups
 * (-1: none): the same group, or the same once Korean romanisation variants are folded; 0
 * otherwise. "guang" is not a misspelt "guanghua", nor "yong" a misspelt "ryong": a character
 * has one reading per scheme, and each scheme is tried.
 */
export function syllableSimilarity(
  a: string,
  aGroup: number,
  b: string,
  bGroup: number,
  scores: NonNullable<TokenScores['syllable']>,
): number {
  if (aGroup >= 0 && aGroup === bGroup) return scores.variant;
  return koreanFold(a) === koreanFold(b) ? scores.koreanFold : 0;
}
