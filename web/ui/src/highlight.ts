/**
 * Splits a name into the parts a matcher's tokens cover and the parts they do not, so a case view
 * can mark which words of the searched input met which words of the list entry. Words are compared
 * as the matcher compares them: case, accents and punctuation aside.
 */

export type HighlightSegment = { text: string; matched: boolean };

/** A word as the matcher's tokens are written: lower case, accents and marks removed. */
export function normalizeToken(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The text cut into words that are in `tokens` (matched) and everything else, in order. */
export function highlightSegments(text: string, tokens: Iterable<string>): HighlightSegment[] {
  const wanted = new Set<string>();
  for (const token of tokens) for (const word of token.match(WORD) ?? []) wanted.add(normalizeToken(word));
  const segments: HighlightSegment[] = [];
  const push = (part: string, matched: boolean) => {
    if (part === '') return;
    const last = segments.at(-1);
    if (last && last.matched === matched) last.text += part;
    else segments.push({ text: part, matched });
  };
  let at = 0;
  for (const match of text.matchAll(WORD)) {
    push(text.slice(at, match.index), false);
    push(match[0], wanted.has(normalizeToken(match[0])));
    at = match.index + match[0].length;
  }
  push(text.slice(at), false);
  // Matched words apart only by spaces read as one mark ("Jong Un"), not as a row of boxes.
  const joined: HighlightSegment[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const next = segments[i + 1];
    const last = joined.at(-1);
    if (last?.matched && !segment.matched && /^\s+$/.test(segment.text) && next?.matched) {
      last.text += segment.text + next.text;
      i++;
    } else {
      joined.push({ ...segment });
    }
  }
  return joined;
}
