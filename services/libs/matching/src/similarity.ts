// String metrics on normalised ASCII tokens. Hand-written rather than imported because
// the hot path needs a bounded edit distance (stop as soon as the budget is exceeded)
// and Jaro-Winkler without allocation.

// Reused scratch buffers: both metrics run millions of times and must not allocate.
const SCRATCH = 128;
const SCRATCH_A = new Uint8Array(SCRATCH);
const SCRATCH_B = new Uint8Array(SCRATCH);
const ROW_0 = new Int32Array(SCRATCH + 1);
const ROW_1 = new Int32Array(SCRATCH + 1);
const ROW_2 = new Int32Array(SCRATCH + 1);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions, so
 * "Spuntik"/"Sputnik" is one edit), or `max + 1` as soon as it exceeds `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (a === b) return 0;
  if (la === 0) return lb;
  if (lb === 0) return la;
  const big = lb + 1 > SCRATCH + 1;
  let prevPrev = big ? new Int32Array(lb + 1) : ROW_0.fill(0, 0, lb + 1);
  let prev = big ? new Int32Array(lb + 1) : ROW_1;
  let curr = big ? new Int32Array(lb + 1) : ROW_2;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    curr[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, prevPrev[j - 2]! + 1);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prevPrev;
    prevPrev = prev;
    prev = curr;
    curr = t;
  }
  return prev[lb]!;
}

/** Jaro-Winkler similarity with the standard 0.1 prefix scale over up to 4 characters. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const big = la > SCRATCH || lb > SCRATCH;
  const matchedA = big ? new Uint8Array(la) : SCRATCH_A.fill(0, 0, la);
  const matchedB = big ? new Uint8Array(lb) : SCRATCH_B.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const ca = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && b.charCodeAt(j) === ca) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

const CHAR_COUNTS = new Int32Array(128);

/**
 * Whether the Jaro-Winkler similarity of `a` and `b` is certainly below `floor`. Their
 * matches cannot outnumber the characters they share at all, which bounds the Jaro score
 * from above; with the exact common prefix that bounds Jaro-Winkler. A few counts instead
 * of the windowed matching, and false (no claim) whenever the bound does not decide.
 */
export function jaroWinklerBelow(a: string, b: string, floor: number): boolean {
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0 || a === b) return false;
  const counts = CHAR_COUNTS;
  let ascii = true;
  for (let i = 0; i < la; i++) {
    const ch = a.charCodeAt(i);
    if (ch >= 128) {
      ascii = false;
      break;
    }
    counts[ch]!++;
  }
  let shared = 0;
  if (ascii) {
    for (let j = 0; j < lb; j++) {
      const ch = b.charCodeAt(j);
      if (ch < 128 && counts[ch]! > 0) {
        counts[ch]!--;
        shared++;
      }
    }
  }
  for (let i = 0; i < la; i++) {
    const ch = a.charCodeAt(i);
    if (ch < 128) counts[ch] = 0;
  }
  if (!ascii) return false;
  if (shared === 0) return true;
  const jaro = (shared / la + shared / lb + 1) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  // a margin for rounding: the bound only rules out what is clearly below the floor
  return jaro + prefix * 0.1 * (1 - jaro) < floor - 1e-9;
}

/** Character trigrams of a token padded with spaces ("  ab", " abc", ...), deduplicated. */
export function trigrams(token: string): string[] {
  const padded = ' ' + token + ' ';
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/** Collapses runs of the same letter ("Bassam" → "basam"). */
export function collapseDoubles(token: string): string {
  let out = '';
  for (let i = 0; i < token.length; i++) if (token[i] !== token[i - 1]) out += token[i];
  return out;
}
