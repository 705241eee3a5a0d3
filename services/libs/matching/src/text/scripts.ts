// Script detection works on code-point ranges rather than \p{Script=...} so it
// stays cheap on the hot path (every list name at build time, every query).

export type Script =
  'Latn' | 'Cyrl' | 'Arab' | 'Grek' | 'Hebr' | 'Hani' | 'Kana' | 'Hang' | 'Deva' | 'Other' | 'Common';

export function scriptOf(codePoint: number): Script {
  if (codePoint < 0x80) {
    const isLetter = (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a);
    return isLetter ? 'Latn' : 'Common';
  }
  if (codePoint <= 0x024f || (codePoint >= 0x1e00 && codePoint <= 0x1eff)) {
    // Latin-1 punctuation and symbols sit inside this range too.
    if (codePoint < 0xc0 || codePoint === 0xd7 || codePoint === 0xf7) return 'Common';
    return 'Latn';
  }
  if (codePoint >= 0x0300 && codePoint <= 0x036f) return 'Common';
  if (codePoint >= 0x0370 && codePoint <= 0x03ff) return 'Grek';
  if (codePoint >= 0x1f00 && codePoint <= 0x1fff) return 'Grek';
  if (codePoint >= 0x0400 && codePoint <= 0x052f) return 'Cyrl';
  if (codePoint >= 0x0590 && codePoint <= 0x05ff) return 'Hebr';
  if (codePoint >= 0x0600 && codePoint <= 0x06ff) return 'Arab';
  if (codePoint >= 0x0750 && codePoint <= 0x077f) return 'Arab';
  if (codePoint >= 0x08a0 && codePoint <= 0x08ff) return 'Arab';
  if (codePoint >= 0xfb50 && codePoint <= 0xfdff) return 'Arab';
  if (codePoint >= 0xfe70 && codePoint <= 0xfeff) return 'Arab';
  if (codePoint >= 0x0900 && codePoint <= 0x097f) return 'Deva';
  if (codePoint >= 0x3040 && codePoint <= 0x30ff) return 'Kana';
  if (codePoint >= 0x31f0 && codePoint <= 0x31ff) return 'Kana';
  if (codePoint >= 0xff66 && codePoint <= 0xff9f) return 'Kana';
  if (codePoint >= 0x1100 && codePoint <= 0x11ff) return 'Hang';
  if (codePoint >= 0x3130 && codePoint <= 0x318f) return 'Hang';
  if (codePoint >= 0xac00 && codePoint <= 0xd7af) return 'Hang';
  if (codePoint >= 0x4e00 && codePoint <= 0x9fff) return 'Hani';
  if (codePoint >= 0x3400 && codePoint <= 0x4dbf) return 'Hani';
  if (codePoint >= 0xf900 && codePoint <= 0xfaff) return 'Hani';
  if (codePoint >= 0x20000 && codePoint <= 0x2ffff) return 'Hani';
  if (codePoint >= 0x2000 && codePoint <= 0x206f) return 'Common';
  if (codePoint >= 0x3000 && codePoint <= 0x303f) return 'Common';
  return 'Other';
}

/** The dominant non-Common script of a string (ties go to the first seen). */
export function dominantScript(text: string): Script {
  const counts = new Map<Script, number>();
  for (const ch of text) {
    const s = scriptOf(ch.codePointAt(0)!);
    if (s === 'Common') continue;
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  let best: Script = 'Common';
  let bestCount = 0;
  for (const [s, c] of counts) {
    if (c > bestCount) {
      best = s;
      bestCount = c;
    }
  }
  return best;
}

export function isAsciiOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Scripts written without most vowels: their Latin readings are compared by consonant skeleton. */
export function isAbjad(script: string): boolean {
  return script === 'Arab' || script === 'Hebr';
}

/** Han and Hangul: every romanised token is a whole syllable (or a name of whole syllables). */
export function isSyllabic(script: string): boolean {
  return script === 'Hani' || script === 'Hang';
}
