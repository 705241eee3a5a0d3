// Cyrillic → Latin close to the BGN/PCGN and passport practice that OFAC, the UN and
// the UK actually print ("Sergey", "Yuryevich", "Khodorkovskiy"), so a Cyrillic query
// lands on the Latin-only records of the same person. Ukrainian text is recognised by
// its own letters (і ї є ґ) and then follows the Ukrainian national system
// ("Oleksandr", "Hryhoriy"). Remaining spelling drift (Dmitriy/Dmitry) is left to the
// fuzzy and phonetic comparison and to the name-equivalence table.

const COMMON: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', д: 'd', ж: 'zh', з: 'z', к: 'k', л: 'l', м: 'm', н: 'n',
  о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch',
  ш: 'sh', щ: 'shch', ю: 'yu', я: 'ya', ь: '', ъ: '', э: 'e', ы: 'y', й: 'y', ё: 'e',
  // Belarusian, Serbian/Macedonian, Kazakh/Tajik letters seen on the lists
  ў: 'u', ђ: 'dj', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', џ: 'dz', ѓ: 'g', ќ: 'k', ѕ: 'dz',
  ә: 'a', ғ: 'gh', қ: 'q', ң: 'ng', ө: 'o', ұ: 'u', ү: 'u', һ: 'h', ҳ: 'h', ҷ: 'j', ӣ: 'i', ӯ: 'u',
};

const RUSSIAN: Record<string, string> = { ...COMMON, г: 'g', е: 'e', и: 'i', і: 'i' };
const UKRAINIAN: Record<string, string> = { ...COMMON, г: 'h', ґ: 'g', е: 'e', и: 'y', і: 'i', ї: 'yi', є: 'ye', й: 'y' };

const VOWELS = new Set(['а', 'е', 'ё', 'и', 'о', 'у', 'ы', 'э', 'ю', 'я', 'і', 'ї', 'є', 'ь', 'ъ']);

export function isUkrainianText(lower: string): boolean {
  return /[іїєґ]/u.test(lower);
}

/** Transliterates lower-case Cyrillic text; non-Cyrillic characters pass through. */
export function transliterateCyrillic(lower: string): string {
  const ukrainian = isUkrainianText(lower);
  const table = ukrainian ? UKRAINIAN : RUSSIAN;
  const chars = Array.from(lower);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const prev = i > 0 ? chars[i - 1]! : '';
    const next = chars[i + 1] ?? '';
    const wordStart = prev === '' || !/\p{L}/u.test(prev);
    if (!ukrainian && ch === 'е' && !wordStart && VOWELS.has(prev)) {
      out += 'ye';
      continue;
    }
    if (!ukrainian && ch === 'ё') {
      out += wordStart || VOWELS.has(prev) ? 'yo' : 'e';
      continue;
    }
    if (ukrainian && wordStart && (ch === 'ю' || ch === 'я' || ch === 'є' || ch === 'ї' || ch === 'й')) {
      out += table[ch] ?? ch;
      continue;
    }
    if (!ukrainian && ch === 'и' && next === 'й') {
      // "-ий" is printed "-iy" on the lists (Dmitriy, Yuriy, Georgiy)
      out += 'iy';
      i++;
      continue;
    }
    if (!ukrainian && ch === 'ы' && next === 'й') {
      out += 'yy';
      i++;
      continue;
    }
    const mapped = table[ch];
    out += mapped === undefined ? ch : mapped;
  }
  return out;
}
