// Issue #32: recall on names disguised as an attacker would (testing/adversarial.ts), by kind, over
// real list names: the primary names of the records in the committed v2 golden fixture (persons and
// organisations written in Latin letters, 2 to 5 words), each screened through the whole engine
// over those 5,231 records. A name counts when its own record is flagged (review or blocked); names
// whose undisguised form is not flagged are left out, as they measure something else. The sample is
// seeded, so a change that helps one kind shows as that kind, not as chosen strings.
// ADVERSARIAL_REPORT=1 prints the table.
import type { Entity } from '@vigil/lists';
import { getAlgorithm, listAlgorithms } from '../algorithm.js';
import { ADVERSARIAL_KINDS, asTyped, disguise, seededRandom, type AdversarialKind } from '../testing/adversarial.js';
import { goldenFixtureEntities } from './golden-fixture.js';

const NAMES_PER_KIND = 150;
// ADVERSARIAL_SEED draws another sample, to check that a kind holds beyond this one
const SEED = Number(process.env.ADVERSARIAL_SEED ?? 32);
/** The kinds reading a name as it is seen fixes, in every version; extra words are v3's containment. */
const NORMALISATION_KINDS: readonly AdversarialKind[] = ['lookalike_1', 'lookalike_3', 'lookalike_typo', 'invisible_inside', 'invisible_end', 'title'];

const entities = goldenFixtureEntities('v2');

/** Seeded sample of records whose primary name is plain Latin of 2 to 5 words, persons and organisations. */
function sample(): Entity[] {
  const random = seededRandom(SEED);
  const eligible = entities.filter((e) => {
    const full = e.names[0]?.full ?? '';
    const words = full.split(/[\s,]+/).filter(Boolean).length;
    return (e.type === 'individual' || e.type === 'organization') && /^[A-Za-z][A-Za-z .,'-]+$/.test(full) && words >= 2 && words <= 5;
  });
  // Fisher-Yates with the seeded source
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j]!, eligible[i]!];
  }
  return eligible;
}

type KindRecall = { kind: AdversarialKind; n: number; hits: number; misses: string[] };

function recallByKind(algorithm: string): KindRecall[] {
  const screener = getAlgorithm(algorithm).build(entities);
  const flags = (name: string, e: Entity) => screener.screen({ name }).some((m) => m.entity === e && m.status !== 'clear');
  const random = seededRandom(SEED + 1);
  const names = sample();
  return ADVERSARIAL_KINDS.map((kind) => {
    const row: KindRecall = { kind, n: 0, hits: 0, misses: [] };
    for (const e of names) {
      if (row.n >= NAMES_PER_KIND) break;
      const typed = asTyped(e.names[0]!.full);
      const variant = disguise(typed, kind, random);
      if (variant === null || !flags(typed, e)) continue;
      row.n++;
      if (flags(variant, e)) row.hits++;
      else row.misses.push(JSON.stringify(variant));
    }
    return row;
  });
}

const results = new Map(listAlgorithms().map((a) => [a, recallByKind(a)]));

if (process.env.ADVERSARIAL_REPORT) {
  const lines = [`kind               n  ${[...results.keys()].map((a) => a.padStart(9)).join(' ')}`];
  for (let k = 0; k < ADVERSARIAL_KINDS.length; k++) {
    const rows = [...results.values()].map((r) => r[k]!);
    lines.push(`${ADVERSARIAL_KINDS[k]!.padEnd(16)} ${String(rows[0]!.n).padStart(3)}  ${rows.map((r) => (r.hits / r.n).toFixed(3).padStart(9)).join(' ')}`);
  }
  const overall = [...results.values()].map((r) => r.reduce((s, x) => s + x.hits, 0) / r.reduce((s, x) => s + x.n, 0));
  lines.push(`${'OVERALL'.padEnd(20)}  ${overall.map((x) => x.toFixed(3).padStart(9)).join(' ')}`);
  for (const [a, r] of results) for (const row of r) if (row.misses.length) lines.push(`${a} ${row.kind} misses: ${row.misses.slice(0, 6).join(' ')}`);
  console.log(lines.join('\n'));
}

describe('disguised list names (issue #32 adversarial kinds)', () => {
  test('every kind is measured on a real sample', () => {
    for (const rows of results.values()) for (const r of rows) expect({ kind: r.kind, enough: r.n >= NAMES_PER_KIND / 2 }).toEqual({ kind: r.kind, enough: true });
  });

  test('vigil-v3: recall at least 0.97 overall and 0.93 in every kind', () => {
    const rows = results.get('vigil-v3')!;
    const overall = rows.reduce((s, r) => s + r.hits, 0) / rows.reduce((s, r) => s + r.n, 0);
    expect(overall).toBeGreaterThanOrEqual(0.97);
    for (const r of rows) expect({ kind: r.kind, recall: r.hits / r.n >= 0.93, misses: r.misses }).toEqual({ kind: r.kind, recall: true, misses: r.misses });
  });

  test.each(['vigil-v1', 'vigil-v2'])('%s: look-alike letters, invisible characters and titles hold too (at least 0.93 a kind)', (algorithm) => {
    for (const r of results.get(algorithm)!) {
      if (!NORMALISATION_KINDS.includes(r.kind)) continue;
      expect({ kind: r.kind, recall: r.hits / r.n >= 0.93, misses: r.misses }).toEqual({ kind: r.kind, recall: true, misses: r.misses });
    }
  });
});
