// ISO 15924 script of a name, so the matching engine knows which names need transliteration
// and which query scripts a record can be reached from.

// ASCII, Latin-1, Latin Extended, spacing modifiers, combining diacritics, Latin Extended
// Additional and general punctuation: a name made only of these needs no script.
function isLatinOnly(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x370 || (c >= 0x1e00 && c <= 0x1eff) || (c >= 0x2000 && c <= 0x206f)) continue;
    return false;
  }
  return true;
}

const SCRIPTS: readonly (readonly [code: string, pattern: RegExp])[] = [
  ['Cyrl', /\p{Script=Cyrillic}/u],
  ['Arab', /\p{Script=Arabic}/u],
  ['Grek', /\p{Script=Greek}/u],
  ['Hebr', /\p{Script=Hebrew}/u],
  ['Hani', /\p{Script=Han}/u],
  ['Hira', /\p{Script=Hiragana}/u],
  ['Kana', /\p{Script=Katakana}/u],
  ['Hang', /\p{Script=Hangul}/u],
  ['Deva', /\p{Script=Devanagari}/u],
  ['Beng', /\p{Script=Bengali}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Geor', /\p{Script=Georgian}/u],
  ['Armn', /\p{Script=Armenian}/u],
  ['Ethi', /\p{Script=Ethiopic}/u],
  ['Khmr', /\p{Script=Khmer}/u],
  ['Mymr', /\p{Script=Myanmar}/u],
  ['Taml', /\p{Script=Tamil}/u],
  ['Syrc', /\p{Script=Syriac}/u],
  ['Thaa', /\p{Script=Thaana}/u],
  ['Mong', /\p{Script=Mongolian}/u],
  ['Tibt', /\p{Script=Tibetan}/u],
  ['Latn', /\p{Script=Latin}/u],
];

/**
 * The ISO 15924 code of the script most of the name's letters are in, or undefined for Latin
 * (and for names without letters). Japanese mixes give "Jpan", Korean with Hanja "Kore".
 */
export function detectScript(name: string): string | undefined {
  if (isLatinOnly(name)) return undefined;
  const counts = new Map<string, number>();
  for (const ch of name) {
    if (ch.charCodeAt(0) < 0x250) continue;
    for (const [code, pattern] of SCRIPTS) {
      if (pattern.test(ch)) {
        counts.set(code, (counts.get(code) ?? 0) + 1);
        break;
      }
    }
  }
  const kana = (counts.get('Hira') ?? 0) + (counts.get('Kana') ?? 0);
  if (kana > 0) return 'Jpan';
  if (counts.has('Hang')) return counts.has('Hani') ? 'Kore' : 'Hang';
  let best: string | undefined;
  let bestCount = 0;
  for (const [code, count] of counts) {
    if (count > bestCount) {
      best = code;
      bestCount = count;
    }
  }
  return best === 'Latn' ? undefined : best;
}
