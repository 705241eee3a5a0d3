#!/usr/bin/env node
// Builds bench/eval/dev-scripts.jsonl: the original-script names the lists publish (Han, kana, Arabic),
// each expected to find its record and that party's twins on the other lists, which carry the same
// party under Latin names only (issue #32: "Han, Kana, Hangul and long Arabic originals miss their
// twins on other lists"). Scored as the other sets are; the figure that matters is recall_all.
//
//   node bench/eval/make-dev-scripts.mjs [--out FILE]
//
// A twin is a record of the same kind of party (person or not) on any list the labels cover where
// one side's primary name is among the other's Latin names of two or more words (not weak aliases),
// compared as sorted lower-case words without marks: decided from the lists alone, never by the engine. The lists
// publish no Hangul names, so Hangul is measured by dev-v2's `render_hangul` (twins included the
// same way there, by the Latin name). Kinds: `orig_twin_han`, `orig_twin_kana`,
// `orig_twin_arabic_long` (a person's name of four words or more), `orig_twin_arabic_short` (up to
// three) and `orig_twin_arabic_org` (organisations, whose twins are mostly translations), every
// such name on the lists, so there is no held-out half: the held-out set draws from other lists.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadListsFromDir } from '@vigil/lists/node';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const OUT = resolve(
  args.includes('--out') ? args[args.indexOf('--out') + 1] : resolve(root, 'bench/eval/dev-scripts.jsonl'),
);

const PREFIX = {
  'ofac-sdn': 'ofac-sdn',
  'ofac-cons': 'ofac-cons',
  'un-sc': 'un',
  'uk-hmt': 'uk-hmt',
  opensanctions: 'os',
};
/** The CSL and the DPL repeat other lists' records under their own ids; the scorer leaves out lists no label covers. */
const covered = (e) => e.listId in PREFIX;
const idOf = (e) => `${PREFIX[e.listId]}:${e.sourceId}`;
const words = (text) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}0-9]+/u)
    .filter(Boolean);
const key = (text) => [...words(text)].sort().join(' ');
const isLatin = (s) => !/[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(s);
const person = (e) => e.type === 'individual';

const { entities } = await loadListsFromDir(resolve(root, '../shared/data/lists'));
const byKey = new Map();
for (const e of entities.filter(covered)) {
  for (const n of e.names) {
    const k = key(n.full);
    if (!byKey.has(k)) byKey.set(k, new Set());
    byKey.get(k).add(e);
  }
}
const latinKeys = (e) =>
  new Set(
    e.names
      .filter((n) => isLatin(n.full) && n.strength !== 'weak' && words(n.full).length >= 2)
      .map((n) => key(n.full)),
  );
/**
 * The record, the records carrying the same original name, and its twins: records where one side's
 * primary Latin name is among the other's Latin names (a shared alias such as "Abu Omar" is not enough).
 */
function expectFor(e, original) {
  const out = new Set([idOf(e)]);
  for (const o of byKey.get(key(original)) ?? []) if (person(o) === person(e)) out.add(idOf(o));
  const mine = latinKeys(e);
  const primary = isLatin(e.names[0].full) ? key(e.names[0].full) : null;
  for (const k of mine) {
    for (const o of byKey.get(k) ?? []) {
      if (person(o) !== person(e) || o === e) continue;
      if (k === primary || key(o.names[0].full) === k) out.add(idOf(o));
    }
  }
  return [...out].sort();
}

function kindOf(name, e) {
  // Names that also carry a Latin gloss ("Akrin Saleh Akrin (أقرين صالح أقرين)") are not originals.
  if (/\p{Script=Latin}/u.test(name)) return null;
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(name)) return 'orig_twin_kana';
  if (/\p{Script=Han}/u.test(name)) return 'orig_twin_han';
  if (/\p{Script=Hangul}/u.test(name)) return 'orig_twin_hangul';
  // An organisation's twins are mostly translations ("Libyan Islamic Fighting Group"), not readings:
  // reported as their own kind, not a target.
  if (/\p{Script=Arabic}/u.test(name) && !person(e)) return 'orig_twin_arabic_org';
  if (/\p{Script=Arabic}/u.test(name))
    return words(name).length >= 4 ? 'orig_twin_arabic_long' : 'orig_twin_arabic_short';
  return null;
}

const lines = [];
const seen = new Set();
for (const e of entities.filter(covered).sort((a, b) => idOf(a).localeCompare(idOf(b)))) {
  for (const n of e.names) {
    const kind = kindOf(n.full, e);
    const q = n.full
      .replace(/[«»“”„"（）()]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!kind || seen.has(key(q))) continue;
    seen.add(key(q));
    const expect = expectFor(e, n.full);
    lines.push({
      id: `os-${String(lines.length + 1).padStart(4, '0')}`,
      query: { name: q, entityType: person(e) ? 'person' : 'organization' },
      expect,
      acceptable: [],
      kind,
      note: `${idOf(e)}'s own ${kind.slice('orig_twin_'.length)} name; twins by Latin name: ${expect.length - 1}`,
      lists: [...new Set(expect.map((x) => x.split(':')[0]))],
    });
  }
}
writeFileSync(OUT, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const count = {};
for (const l of lines) count[l.kind] = (count[l.kind] ?? 0) + 1;
console.log(`${lines.length} queries → ${OUT}`, count);
