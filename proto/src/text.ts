import type { FieldError } from './errors.js';

/**
 * The input rules every received message obeys, whatever its schema (issue #15, finding 4).
 *
 * Text: Postgres `text` cannot hold U+0000, and an unpaired UTF-16 surrogate is not Unicode at
 * all (it cannot be encoded as UTF-8, so a driver, a log line or a JSON encoder fails on it). Any
 * string anywhere in a message, keys included, with either is refused before a schema runs:
 * `parseMessage` (every service's edge) and the gateway's request middleware apply
 * `unsafeTextErrors`, so no schema has to remember it.
 *
 * Integers: a number that reaches SQL as `integer` must lie within int4. Request schemas say so
 * with `z.int32()` (or a smaller `max`); `text.spec.ts` checks every exported request schema.
 */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string is not acceptable text, or undefined when it is. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain an unpaired surrogate (it is not valid Unicode)';
  return undefined;
}

/** The string with each NUL and unpaired surrogate replaced by U+FFFD, for showing back what was refused. */
export function toSafeText(value: string): string {
  return value.replaceAll('\u0000', '\uFFFD').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

/** At most this many problems are reported: a 100,000-name batch full of NULs gives a readable answer. */
const MAX_REPORTED = 20;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every string (and object key) in a JSON-like value that breaks the text rule, as field errors
 * with JSON pointers (`/names/1`). Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function unsafeTextErrors(value: unknown, pointer = ''): FieldError[] {
  // Nearly every message is clean: that is answered without building a pointer per field.
  if (isSafeText(value, 0)) return [];
  const errors: FieldError[] = [];
  const pending: Array<[unknown, string]> = [[value, pointer]];
  while (pending.length > 0 && errors.length < MAX_REPORTED) {
    const [current, at] = pending.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) errors.push({ pointer: at || '/', detail: problem });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${at}/${i}`]);
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const keyProblem = textProblem(key);
        if (keyProblem) errors.push({ pointer: at || '/', detail: `a field name ${keyProblem}` });
        else pending.push([child, `${at}/${escapePointer(key)}`]);
      }
    }
  }
  return errors.slice(0, MAX_REPORTED);
}

/** Past this depth `isSafeText` gives up (false) and the iterative walk above decides. */
const SAFE_TEXT_DEPTH = 32;

/**
 * Whether every string and key in `value` is acceptable text: the walk of `unsafeTextErrors`
 * without its pointers and work list, for the clean message it is asked about on every request.
 */
function isSafeText(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return textProblem(value) === undefined;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return true;
  if (depth >= SAFE_TEXT_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isSafeText(value[i], depth + 1)) return false;
    return true;
  }
  for (const key of Object.keys(value)) {
    if (textProblem(key) !== undefined) return false;
    if (!isSafeText((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
