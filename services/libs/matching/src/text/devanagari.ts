// Devanagari is an abugida: a consonant carries an inherent "a" unless a vowel sign or
// a virama follows. Generic transliterators drop that vowel ("नरेंद्र" → "nremdr");
// names need it back ("narendra"), with the word-final schwa deleted as Hindi speakers
// and romanised documents do ("मोदी" → "modi", "राम" → "ram").

const CONSONANTS: Record<string, string> = {
  क: 'k', ख: 'kh', ग: 'g', घ: 'gh', ङ: 'n', च: 'ch', छ: 'chh', ज: 'j', झ: 'jh', ञ: 'n',
  ट: 't', ठ: 'th', ड: 'd', ढ: 'dh', ण: 'n', त: 't', थ: 'th', द: 'd', ध: 'dh', न: 'n',
  प: 'p', फ: 'ph', ब: 'b', भ: 'bh', म: 'm', य: 'y', र: 'r', ल: 'l', व: 'v', श: 'sh',
  ष: 'sh', स: 's', ह: 'h', ळ: 'l', क़: 'q', ख़: 'kh', ग़: 'gh', ज़: 'z', ड़: 'r', ढ़: 'rh', फ़: 'f',
};
const INDEPENDENT_VOWELS: Record<string, string> = {
  अ: 'a', आ: 'a', इ: 'i', ई: 'i', उ: 'u', ऊ: 'u', ऋ: 'ri', ए: 'e', ऐ: 'ai', ओ: 'o', औ: 'au', ऑ: 'o',
};
const VOWEL_SIGNS: Record<string, string> = {
  'ा': 'a', 'ि': 'i', 'ी': 'i', 'ु': 'u', 'ू': 'u', 'ृ': 'ri', 'े': 'e', 'ै': 'ai', 'ो': 'o', 'ौ': 'au', 'ॉ': 'o',
};
const VIRAMA = '\u094d';
const NUKTA = '\u093c';
const ANUSVARA = '\u0902';
const CANDRABINDU = '\u0901';
const VISARGA = '\u0903';

export function transliterateDevanagari(text: string): string {
  const chars = Array.from(text.normalize('NFC'));
  let out = '';
  let lettersInWord = 0;
  for (let i = 0; i < chars.length; i++) {
    let ch = chars[i]!;
    if (!/[\u0900-\u097f]/u.test(ch)) lettersInWord = 0;
    if (chars[i + 1] === NUKTA) {
      ch = (ch + NUKTA).normalize('NFC');
      i++;
    }
    const consonant = CONSONANTS[ch];
    if (consonant !== undefined) {
      out += consonant;
      const next = chars[i + 1];
      if (next === VIRAMA) {
        i++;
      } else if (next !== undefined && VOWEL_SIGNS[next] !== undefined) {
        out += VOWEL_SIGNS[next];
        i++;
      } else {
        const atWordEnd = next === undefined || !/[\u0900-\u097f]/u.test(next);
        // a final conjunct keeps its vowel: नरेंद्र → narendra
        if (!atWordEnd || lettersInWord === 0 || chars[i - 1] === VIRAMA) out += 'a';
      }
      lettersInWord++;
      continue;
    }
    const vowel = INDEPENDENT_VOWELS[ch];
    if (vowel !== undefined) {
      out += vowel;
      lettersInWord++;
      continue;
    }
    if (ch === ANUSVARA || ch === CANDRABINDU) {
      out += 'n';
      continue;
    }
    if (ch === VISARGA) {
      out += 'h';
      continue;
    }
    if (ch === VIRAMA || VOWEL_SIGNS[ch] !== undefined) continue;
    const code = ch.codePointAt(0)!;
    if (code >= 0x0966 && code <= 0x096f) {
      out += String(code - 0x0966);
      continue;
    }
    out += ch;
  }
  return out;
}
