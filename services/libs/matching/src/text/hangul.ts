// Hangul syllables decompose arithmetically into initial, vowel and final jamo, so the
// romanisation is a table lookup. Two schemes are produced because the lists mix them:
// Revised Romanization (South Korea: "Gim Jeong-eun") and the McCune-Reischauer style
// without breves that the DPRK designations use ("Kim Jong Un", "Ri Chae Il").

import hanjaTable from 'hanja/lib/data/hanjaeum.json' with { type: 'json' };

const RR_INITIAL = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const MR_INITIAL = ['k', 'kk', 'n', 't', 'tt', 'r', 'm', 'p', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const RR_VOWEL = ['a', 'ae', 'ya', 'yae', 'eo', 'e', 'yeo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'eu', 'ui', 'i'];
const MR_VOWEL = ['a', 'ae', 'ya', 'yae', 'o', 'e', 'yo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'u', 'ui', 'i'];
const FINAL = ['', 'k', 'k', 'k', 'n', 'n', 'n', 't', 'l', 'k', 'm', 'l', 'l', 'l', 'p', 'l', 'm', 'p', 'p', 't', 't', 'ng', 't', 't', 'k', 't', 'p', 't'];

export type KoreanScheme = 'rr' | 'mr';

function romaniseSyllable(code: number, scheme: KoreanScheme, wordInitial: boolean): string {
  const index = code - 0xac00;
  const initial = Math.floor(index / 588);
  const vowel = Math.floor((index % 588) / 28);
  const final = index % 28;
  let ini = (scheme === 'rr' ? RR_INITIAL : MR_INITIAL)[initial]!;
  // A word-initial ㄹ is "r" in the North (Ri, Ryu) and silent or "n" in the South
  if (scheme === 'rr' && wordInitial && initial === 5) ini = '';
  return ini + (scheme === 'rr' ? RR_VOWEL : MR_VOWEL)[vowel]! + FINAL[final]!;
}

/**
 * Romanises Hangul text syllable by syllable, one token per syllable, because names are
 * written "Kim Jong Un", "Kim Jong-un" and "Kim Jongun" alike and the comparison joins
 * adjacent tokens anyway.
 */
export function romaniseHangul(text: string, scheme: KoreanScheme): string {
  let out = '';
  let prevWasSyllable = false;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xac00 && code <= 0xd7a3) {
      out += (prevWasSyllable ? ' ' : '') + romaniseSyllable(code, scheme, !prevWasSyllable);
      prevWasSyllable = true;
    } else {
      out += ch;
      prevWasSyllable = false;
    }
  }
  return out;
}

const HANJA = hanjaTable as Record<string, string>;
// Surnames whose Korean reading differs from the character's usual reading.
const SURNAME_READING: Record<string, string> = { 金: '김' };

/** Sino-Korean reading of Han characters (金正恩 → 김정은); null when any is unknown. */
export function hanjaToHangul(text: string): string | null {
  let out = '';
  let first = true;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x3400) {
      out += ch;
      first = true;
      continue;
    }
    const reading = (first ? SURNAME_READING[ch] : undefined) ?? HANJA[ch];
    if (reading === undefined) return null;
    out += reading;
    first = false;
  }
  return out;
}
