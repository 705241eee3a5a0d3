import type { Entity, EntityName } from '@vigil/lists';
import { neutralise } from '../text/hostile.js';

/**
 * A name in a non-Latin script that a record's twin publishes and the record itself does not:
 * the UN gives "خالد عبد الرحمن حمد الفواز" for the party OFAC and the UK list under Latin names only.
 * `twinOf` says whose name it is, for the explanation.
 */
export type TwinName = EntityName & { readonly twinOf: { listId: string; sourceId: string } };

export function isTwinName(name: EntityName): name is TwinName {
  return (name as Partial<TwinName>).twinOf !== undefined;
}

/** Latin (with common punctuation and marks) throughout. */
const LATIN_ONLY = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u;
/** Han, kana, Hangul, Arabic, Hebrew, Cyrillic, Greek...: any letter outside Latin. */
const NON_LATIN_LETTER = /[^\P{L}\p{Script=Latin}]/u;

function words(text: string): string[] {
  return neutralise(text)
    .text.normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The words of a Latin name in order-free form: "AL-FAWAZ, Khalid" and "Khalid AL FAWAZ" meet. */
function nameKey(name: EntityName): string | null {
  if (name.strength === 'weak' || !LATIN_ONLY.test(name.full)) return null;
  const w = words(name.full);
  return w.length >= 2 ? w.sort().join(' ') : null;
}

const isPerson = (e: Entity): boolean => e.type === 'individual';

/** Birth years a record states, or null when it states none. */
function birthYears(e: Entity): Set<string> | null {
  const years = new Set(e.birthDates.map((d) => d.slice(0, 4)).filter((y) => /^\d{4}$/.test(y)));
  return years.size > 0 ? years : null;
}

/**
 * Whether two records sharing a Latin name are one party for this purpose: the same kind of party,
 * and for a person either a name of three words or more or a birth year in common (two-word names
 * such as "Mohammad Hassan" are shared by different people), and never birth years that differ.
 */
function sameParty(a: Entity, b: Entity, sharedWords: number): boolean {
  if (isPerson(a) !== isPerson(b)) return false;
  const ya = birthYears(a);
  const yb = birthYears(b);
  const yearsAgree = ya !== null && yb !== null && [...ya].some((y) => yb.has(y));
  if (ya !== null && yb !== null && !yearsAgree) return false;
  return !isPerson(a) || sharedWords >= 3 || yearsAgree;
}

/**
 * v3: each record also carries the non-Latin names of its twins — records (on any list) where one
 * side's primary Latin name is among the other's Latin names of two or more words, and that are
 * the same party by `sameParty`. A query in the original script then finds every list's record of
 * the party, not only the one that publishes the script (issue #32: Han, kana, Hangul and long
 * Arabic originals found with their twins). Decided from the lists alone, once per index build.
 * The records are not changed: what a record borrows is scored beside its own names and explained
 * as a `twinName` qualifier, and the record a client sees still carries only what its list says.
 */
export function twinNames(entities: readonly Entity[]): Map<Entity, TwinName[]> {
  const byKey = new Map<string, number[]>();
  const keys = entities.map((e, i) => {
    const own = new Set<string>();
    for (const n of e.names) {
      const k = nameKey(n);
      if (k === null || own.has(k)) continue;
      own.add(k);
      let list = byKey.get(k);
      if (!list) byKey.set(k, (list = []));
      list.push(i);
    }
    return own;
  });
  const primaryKey = entities.map((e) => (e.names[0] ? nameKey(e.names[0]) : null));
  const borrowed = new Map<number, TwinName[]>();
  entities.forEach((source, s) => {
    const originals = source.names.filter((n) => n.strength !== 'weak' && NON_LATIN_LETTER.test(n.full));
    if (originals.length === 0) return;
    const twins = new Set<number>();
    for (const k of keys[s]!) {
      for (const t of byKey.get(k) ?? []) {
        if (t === s || twins.has(t)) continue;
        if (k !== primaryKey[s] && k !== primaryKey[t]) continue;
        if (sameParty(source, entities[t]!, k.split(' ').length)) twins.add(t);
      }
    }
    for (const t of twins) {
      const have = new Set(entities[t]!.names.map((n) => n.full));
      const add = originals
        .filter((n) => !have.has(n.full))
        .map((n): TwinName => ({
          ...n,
          strength: 'strong',
          twinOf: { listId: source.listId, sourceId: source.sourceId },
        }));
      if (add.length === 0) continue;
      const list = borrowed.get(t) ?? [];
      for (const n of add) if (!list.some((x) => x.full === n.full)) list.push(n);
      borrowed.set(t, list);
    }
  });
  return new Map([...borrowed].map(([t, names]) => [entities[t]!, names]));
}
