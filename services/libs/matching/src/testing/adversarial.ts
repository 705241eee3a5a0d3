// Adversarial variants of list names, by kind, as an attacker would write them to slip past
// screening (issue #32). Each kind is a way of disguising a name, applied the same way to any name,
// so a test measures recall per kind over many names rather than on chosen strings. Deterministic:
// the same seed gives the same variants.

/** The ways of disguising a name the issue names. */
export type AdversarialKind =
  | 'lookalike_1'
  | 'lookalike_3'
  | 'lookalike_typo'
  | 'invisible_inside'
  | 'invisible_end'
  | 'extra_token'
  | 'title';

export const ADVERSARIAL_KINDS: readonly AdversarialKind[] = ['lookalike_1', 'lookalike_3', 'lookalike_typo', 'invisible_inside', 'invisible_end', 'extra_token', 'title'];

/**
 * Latin letters and the Cyrillic, Greek and Armenian letters drawn like them that a homoglyph
 * generator offers. Written out here rather than taken from the engine's table, so the test does
 * not grade the engine with its own answer key (some pairs, such as Cyrillic к for k, are not in
 * UTS #39 at all).
 */
const LOOKALIKES: Record<string, readonly string[]> = {
  a: ['\u0430', '\u03b1'],
  c: ['\u0441', '\u03f2'],
  e: ['\u0435'],
  i: ['\u0456', '\u03b9'],
  j: ['\u0458'],
  k: ['\u043a', '\u03ba'],
  o: ['\u043e', '\u03bf', '\u0585'],
  p: ['\u0440', '\u03c1'],
  s: ['\u0455'],
  x: ['\u0445'],
  y: ['\u0443'],
  h: ['\u04bb'],
  A: ['\u0410', '\u0391'],
  B: ['\u0412', '\u0392'],
  C: ['\u0421'],
  E: ['\u0415', '\u0395'],
  H: ['\u041d', '\u0397'],
  I: ['\u0406', '\u0399'],
  K: ['\u041a', '\u039a'],
  M: ['\u041c', '\u039c'],
  N: ['\u039d'],
  O: ['\u041e', '\u039f'],
  P: ['\u0420', '\u03a1'],
  S: ['\u0405'],
  T: ['\u0422', '\u03a4'],
  X: ['\u0425', '\u03a7'],
  Y: ['\u04ae', '\u03a5'],
};

/** Characters that draw nothing: zero-width, joiners, soft hyphen, word joiner, variation selectors, tags, Mongolian vowel separator, BOM. */
const INVISIBLES = ['\u200b', '\u200c', '\u200d', '\u00ad', '\u2060', '\ufe0f', '\u{E0041}', '\u{E0020}', '\u180e', '\ufeff', '\u034f', '\u{E0100}'];

const EXTRA_WORDS = ['Smith', 'Ivanov', 'Garcia', 'Nakamura', 'Müller', 'Kowalski', 'Haddad', 'Okafor', 'Silva', 'Jensen', 'Rossi', 'Novak'];
const TITLES = ['Mr', 'Mrs', 'Dr', 'General', 'Colonel', 'Sheikh', 'Haji', 'Captain'];

/** A seeded random source (mulberry32): the same seed, the same variants. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Positions of the letters of `text` that have a look-alike. */
function lookalikePositions(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if (LOOKALIKES[text[i]!]) out.push(i);
  return out;
}

/** `count` letters swapped for look-alikes, at distinct positions; null when the name has too few. */
function withLookalikes(text: string, count: number, random: () => number): string | null {
  const positions = lookalikePositions(text);
  if (positions.length < count) return null;
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(pick(random, positions));
  let out = '';
  for (let i = 0; i < text.length; i++) out += chosen.has(i) ? pick(random, LOOKALIKES[text[i]!]!) : text[i]!;
  return out;
}

/** Two adjacent letters of a word of 5+ letters swapped (not the first, as typists rarely slip there); null when none. */
function withTransposition(text: string, random: () => number): string | null {
  const spots: number[] = [];
  for (const m of text.matchAll(/\p{L}{5,}/gu)) for (let k = 1; k + 1 < m[0].length; k++) if (m[0][k] !== m[0][k + 1]) spots.push(m.index! + k);
  if (spots.length === 0) return null;
  const i = pick(random, spots);
  return text.slice(0, i) + text[i + 1]! + text[i]! + text.slice(i + 2);
}

/** One or two invisible characters inside words (between two letters). */
function withInvisibleInside(text: string, random: () => number): string | null {
  const spots: number[] = [];
  for (let i = 1; i < text.length; i++) if (/\p{L}/u.test(text[i - 1]!) && /\p{L}/u.test(text[i]!)) spots.push(i);
  if (spots.length === 0) return null;
  const n = 1 + Math.floor(random() * 2);
  const at = new Set<number>();
  while (at.size < Math.min(n, spots.length)) at.add(pick(random, spots));
  let out = '';
  for (let i = 0; i < text.length; i++) out += (at.has(i) ? pick(random, INVISIBLES) : '') + text[i]!;
  return out;
}

/**
 * The name disguised one way; null when the kind does not apply to it (too few letters with a
 * look-alike, no word long enough for a transposition).
 */
export function disguise(name: string, kind: AdversarialKind, random: () => number): string | null {
  switch (kind) {
    case 'lookalike_1':
      return withLookalikes(name, 1, random);
    case 'lookalike_3':
      return withLookalikes(name, 3, random);
    case 'lookalike_typo': {
      const typo = withTransposition(name, random);
      return typo === null ? null : withLookalikes(typo, 1, random);
    }
    case 'invisible_inside':
      return withInvisibleInside(name, random);
    case 'invisible_end':
      return name + pick(random, INVISIBLES) + (random() < 0.5 ? pick(random, INVISIBLES) : '');
    case 'extra_token':
      // mostly after the name, as a second surname; sometimes before it
      return random() < 0.75 ? `${name} ${pick(random, EXTRA_WORDS)}` : `${pick(random, EXTRA_WORDS)} ${name}`;
    case 'title':
      return `${pick(random, TITLES)} ${name}`;
  }
}

/** A list name as a person types it: "BOUT, Viktor Anatolijevitch" → "Viktor Anatolijevitch BOUT". */
export function asTyped(full: string): string {
  const parts = full.split(',');
  return parts.length === 2 && parts[0]!.trim() && parts[1]!.trim() ? `${parts[1]!.trim()} ${parts[0]!.trim()}` : full.trim();
}
