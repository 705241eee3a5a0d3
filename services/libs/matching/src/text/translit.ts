import anyAscii from 'any-ascii';
import { arabicWords, consonantSkeleton, hebrewWords } from './abjad.js';
import { transliterateCyrillic } from './cyrillic.js';
import { transliterateDevanagari } from './devanagari.js';
import { hanjaToHangul, romaniseHangul } from './hangul.js';
import { scriptOf, type Script } from './scripts.js';

export { consonantSkeleton };

/**
 * A run of text in one script after transliteration to Latin. Abjad runs also carry each
 * word's consonant skeleton, taken from the original letters.
 */
export type TranslitSegment = { text: string; script: Script; skeletons?: string[] };

/**
 * One Latin reading of a name. A name has several when its script has several
 * established romanisations (Korean RR and McCune-Reischauer; Han characters read
 * as Mandarin or as Sino-Korean).
 */
export type TranslitVariant = { scheme: string; segments: TranslitSegment[] };

export type Run = { text: string; script: Script };

export function splitRuns(text: string): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  for (const ch of text) {
    let s = scriptOf(ch.codePointAt(0)!);
    if (s === 'Common' && current) s = current.script;
    if (current && current.script === s) current.text += ch;
    else {
      current = { text: ch, script: s };
      runs.push(current);
    }
  }
  return runs;
}

function hanSyllables(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (scriptOf(code) === 'Hani') out += ' ' + anyAscii(ch).toLowerCase() + ' ';
    else out += ch;
  }
  return out;
}

function latinOf(run: Run, scheme: string): string | null {
  switch (run.script) {
    case 'Latn':
    case 'Common':
      return run.text;
    case 'Cyrl':
      return transliterateCyrillic(run.text);
    case 'Arab':
      return arabicWords(run.text).map((w) => w.latin).join(' ');
    case 'Hebr':
      return hebrewWords(run.text).map((w) => w.latin).join(' ');
    case 'Deva':
      return transliterateDevanagari(run.text);
    case 'Hang':
      return romaniseHangul(run.text, scheme === 'ko-mr' ? 'mr' : 'rr');
    case 'Hani': {
      if (scheme === 'default') return hanSyllables(run.text);
      const hangul = hanjaToHangul(run.text);
      return hangul === null ? null : romaniseHangul(hangul, scheme === 'ko-mr' ? 'mr' : 'rr');
    }
    default:
      return anyAscii(run.text).toLowerCase();
  }
}

/** Transliterates lower-cased text into every Latin reading worth comparing (`runs`: its splitRuns, when the caller has them). */
export function transliterate(lower: string, runs: Run[] = splitRuns(lower)): TranslitVariant[] {
  const hasHan = runs.some((r) => r.script === 'Hani');
  const hasHangul = runs.some((r) => r.script === 'Hang');
  const schemes = ['default'];
  if (hasHan || hasHangul) schemes.push('ko-mr');
  if (hasHan) schemes.push('ko-rr');
  const variants: TranslitVariant[] = [];
  for (const scheme of schemes) {
    const segments: TranslitSegment[] = [];
    let ok = true;
    for (const run of runs) {
      const text = latinOf(run, scheme);
      if (text === null) {
        ok = false;
        break;
      }
      const segment: TranslitSegment = { text, script: run.script === 'Common' ? 'Latn' : run.script };
      if (run.script === 'Arab') segment.skeletons = arabicWords(run.text).map((w) => w.skeleton);
      if (run.script === 'Hebr') segment.skeletons = hebrewWords(run.text).map((w) => w.skeleton);
      segments.push(segment);
    }
    if (ok) variants.push({ scheme: scheme === 'default' ? schemeName(runs) : scheme, segments });
  }
  return variants;
}

function schemeName(runs: Run[]): string {
  const scripts = new Set(runs.map((r) => r.script).filter((s) => s !== 'Latn' && s !== 'Common'));
  if (scripts.size === 0) return 'latin';
  if (scripts.has('Hani')) return 'zh-pinyin';
  if (scripts.has('Hang')) return 'ko-rr';
  return 'translit-' + [...scripts].sort().join('-').toLowerCase();
}
