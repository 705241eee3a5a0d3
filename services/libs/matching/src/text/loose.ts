// The loose consonant key (v2 readings): how Greek, kana and Hebrew spellings of a name meet its
// Latin spellings, and the index's loose-key postings.
import type { TokenScores } from '../policy.js';
import { boundedEditDistance } from '../similarity.js';

/** Scripts whose Latin readings blur letters Latin keeps apart: Greek, kana, Hebrew. */
export function isLooseScript(script: string): boolean {
  return script === 'Grek' || script === 'Kana' || script === 'Hebr';
}

const LOOSE_KEYS = new Map<string, string>();

/**
 * v2: the consonants of a word as Greek, kana and Hebrew can write them: v/b/w, p/f, r/l,
 * t/ch/ts, j/z/dz/dzh, kh/h fall together, vowels go (Greek and kana spell them differently,
 * Hebrew mostly not at all) except a leading one, and doubled letters are written once. Greek
 * writes d as ντ and b as μπ, so nd/nt/d and mb/mp/b fall together, and an n left before a d or
 * z goes (Conte is Κοντε, Andrey Ανντρει, Sonja Σοντζα); a leading y before a vowel is the vowel
 * Greek and kana write (Yuri, Ιουρι).
 */
export function looseKey(text: string): string {
  let k = LOOSE_KEYS.get(text);
  if (k !== undefined) return k;
  k = looseKeyOf(text);
  if (LOOSE_KEYS.size > 100_000) LOOSE_KEYS.clear();
  LOOSE_KEYS.set(text, k);
  return k;
}

/** Scratch for looseKeyOf (a word's units; x is two). */
let looseScratch = new Uint16Array(64);

/**
 * looseKey without its memo, for the index build, which keys each Latin term of the lists
 * once. One scan over character codes rather than a chain of regular expressions: the build
 * keys half a million terms at 1M names. The units, first match wins as the letters read left
 * to right: shch sch sh → s; tch ts tz th → t; ch → t, ck c → k; zh → z; kh → h; gh → g; ph p → f;
 * dh → d, dzh dj dz → z; ndj ndz → z, nd nt → d; mb mp → b; j → z, q → k, x → ks, w v → b, l → r;
 * vowels and y go. Then runs of a letter are written once, an n before d or z and an m before b
 * go, runs are written once again, and a final h goes.
 */
export function looseKeyOf(text: string): string {
  const n = text.length;
  if (looseScratch.length < 2 * n) looseScratch = new Uint16Array(2 * n);
  const out = looseScratch;
  let len = 0;
  const at = (k: number): number => text.charCodeAt(k);
  for (let i = 0; i < n;) {
    const c = at(i);
    const c1 = at(i + 1);
    switch (c) {
      case 0x73: // s
        out[len++] = 0x73;
        i +=
          c1 === 0x68 ? (at(i + 2) === 0x63 && at(i + 3) === 0x68 ? 4 : 2) : c1 === 0x63 && at(i + 2) === 0x68 ? 3 : 1;
        break;
      case 0x74: // t
        out[len++] = 0x74;
        i += c1 === 0x63 && at(i + 2) === 0x68 ? 3 : c1 === 0x73 || c1 === 0x7a || c1 === 0x68 ? 2 : 1;
        break;
      case 0x63: // c
        if (c1 === 0x68) out[len++] = 0x74;
        else out[len++] = 0x6b;
        i += c1 === 0x68 || c1 === 0x6b ? 2 : 1;
        break;
      case 0x7a: // z
        out[len++] = 0x7a;
        i += c1 === 0x68 ? 2 : 1;
        break;
      case 0x6b: // k
        out[len++] = c1 === 0x68 ? 0x68 : 0x6b;
        i += c1 === 0x68 ? 2 : 1;
        break;
      case 0x67: // g
        out[len++] = 0x67;
        i += c1 === 0x68 ? 2 : 1;
        break;
      case 0x70: // p
        out[len++] = 0x66;
        i += c1 === 0x68 ? 2 : 1;
        break;
      case 0x64: // d
        if (c1 === 0x68) {
          out[len++] = 0x64;
          i += 2;
        } else if (c1 === 0x7a && at(i + 2) === 0x68) {
          out[len++] = 0x7a;
          i += 3;
        } else if (c1 === 0x6a || c1 === 0x7a) {
          out[len++] = 0x7a;
          i += 2;
        } else {
          out[len++] = 0x64;
          i += 1;
        }
        break;
      case 0x6e: // n
        if (c1 === 0x64 && (at(i + 2) === 0x6a || at(i + 2) === 0x7a)) {
          out[len++] = 0x7a;
          i += 3;
        } else if (c1 === 0x64 || c1 === 0x74) {
          out[len++] = 0x64;
          i += 2;
        } else {
          out[len++] = 0x6e;
          i += 1;
        }
        break;
      case 0x6d: // m
        out[len++] = c1 === 0x62 || c1 === 0x70 ? 0x62 : 0x6d;
        i += c1 === 0x62 || c1 === 0x70 ? 2 : 1;
        break;
      case 0x6a: // j
        out[len++] = 0x7a;
        i++;
        break;
      case 0x71: // q
        out[len++] = 0x6b;
        i++;
        break;
      case 0x78: // x
        out[len++] = 0x6b;
        out[len++] = 0x73;
        i++;
        break;
      case 0x77: // w
      case 0x76: // v
        out[len++] = 0x62;
        i++;
        break;
      case 0x6c: // l
        out[len++] = 0x72;
        i++;
        break;
      case 0x79: // y
      case 0x61:
      case 0x65:
      case 0x69:
      case 0x6f:
      case 0x75:
        i++;
        break;
      default:
        out[len++] = c;
        i++;
    }
  }
  len = collapseRuns(out, len);
  // an n before d or z and an m before b are what Greek writes to get a plain d, z or b
  let kept = 0;
  for (let k = 0; k < len; k++) {
    const ch = out[k]!;
    const next = k + 1 < len ? out[k + 1]! : -1;
    if ((ch === 0x6e && (next === 0x64 || next === 0x7a)) || (ch === 0x6d && next === 0x62)) continue;
    out[kept++] = ch;
  }
  len = collapseRuns(out, kept);
  if (len > 0 && out[len - 1] === 0x68) len--;
  const first = text.charCodeAt(0);
  const lead = isVowelCode(first) || (first === 0x79 && isVowelCode(text.charCodeAt(1))) ? 'a' : '';
  return lead + String.fromCharCode.apply(null, out.subarray(0, len) as unknown as number[]);
}

/** Writes each run of one character in the first `length` of `codes` once, in place; returns the new length. */
function collapseRuns(codes: Uint16Array, length: number): number {
  let w = 0;
  for (let k = 0; k < length; k++) {
    const ch = codes[k]!;
    // as /(.)\1+/ did: `.` matches no line break
    if (w > 0 && codes[w - 1] === ch && !isLineBreak(ch)) continue;
    codes[w++] = ch;
  }
  return w;
}

/** What a regular expression's `.` does not match. */
function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

function isVowelCode(code: number): boolean {
  return code === 0x61 || code === 0x65 || code === 0x69 || code === 0x6f || code === 0x75;
}

/** Same loose key, or one edit apart on keys long enough; otherwise no evidence. */
export function looseSimilarity(a: string, b: string, scores: NonNullable<TokenScores['looseKey']>): number {
  const ka = looseKey(a);
  const kb = looseKey(b);
  if (ka.length < 2 || kb.length < 2) return 0;
  if (ka === kb) return scores.same;
  if (Math.min(ka.length, kb.length) >= scores.oneEditMinLength && boundedEditDistance(ka, kb, 1) <= 1)
    return scores.oneEdit;
  return 0;
}
