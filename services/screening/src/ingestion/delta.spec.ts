import { entity } from '../testing/entities.js';
import { computeDelta, stableJson, toRecord } from './delta.js';

describe('list deltas', () => {
  const a = entity('ofac-sdn', '1', 'individual', ['Jane ROE']);
  const b = entity('ofac-sdn', '2', 'organization', ['ACME TRADING LLC']);
  const c = entity('ofac-sdn', '10', 'vessel', ['SEA STAR']);

  it('hashes content, not key order', () => {
    expect(stableJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    const reordered = { ...Object.fromEntries(Object.entries(a).reverse()) } as typeof a;
    expect(toRecord(reordered).hash).toBe(toRecord(a).hash);
  });

  it('finds added, changed and removed ids', () => {
    const previous = new Map([a, b, c].map((e) => [e.sourceId, toRecord(e).hash]));
    const changedB = { ...b, programs: ['IRAN'] };
    const d = entity('ofac-sdn', '3', 'individual', ['John DOE']);
    const delta = computeDelta(previous, [a, changedB, d].map(toRecord));
    expect(delta).toEqual({ added: ['3'], changed: ['2'], removed: ['10'] });
  });

  it('is empty for identical content and all-added against nothing', () => {
    const records = [a, b, c].map(toRecord);
    expect(computeDelta(new Map(records.map((r) => [r.sourceId, r.hash])), records)).toEqual({ added: [], changed: [], removed: [] });
    expect(computeDelta(new Map(), records).added).toEqual(['1', '2', '10']);
  });
});
