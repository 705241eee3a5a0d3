import { z } from 'zod';
import * as proto from './index.js';
import { INT4_MAX, INT4_MIN, textProblem, toSafeText, unsafeTextErrors } from './text.js';

describe('the text rule', () => {
  it('accepts ordinary text, accents, CJK and paired surrogates (emoji)', () => {
    for (const ok of ['Kim Jong Un', 'Müller-Lüdenscheidt', '金正恩', 'Ali 🙂 Khan', ''])
      expect(textProblem(ok)).toBeUndefined();
  });

  it('refuses a NUL and an unpaired surrogate of either half', () => {
    expect(textProblem('Kim\u0000Jong')).toMatch(/NUL/);
    expect(textProblem('Kim \ud800 Jong')).toMatch(/surrogate/);
    expect(textProblem('Kim \udc00')).toMatch(/surrogate/);
    expect(textProblem('\ud83d')).toMatch(/surrogate/);
  });

  it('finds every bad string in a message, keys included, with JSON pointers', () => {
    expect(unsafeTextErrors({ names: ['ok', 'a\u0000b'], nested: { 'a/b': '\udfff' }, n: 1 })).toEqual([
      { pointer: '/names/1', detail: expect.stringMatching(/NUL/) },
      { pointer: '/nested/a~1b', detail: expect.stringMatching(/surrogate/) },
    ]);
    expect(unsafeTextErrors({ ['k\u0000']: 'v' })).toEqual([
      { pointer: '/', detail: expect.stringMatching(/field name/) },
    ]);
    expect(unsafeTextErrors('\u0000')).toEqual([{ pointer: '/', detail: expect.stringMatching(/NUL/) }]);
    expect(unsafeTextErrors({ a: [1, true, null, 'fine'] })).toEqual([]);
  });

  it('shows a refused string back with U+FFFD in place of what could not be kept', () => {
    expect(toSafeText('Kim\u0000Jong \ud800 🙂')).toBe('Kim\uFFFDJong \uFFFD 🙂');
  });

  it('reports at most 20 problems and survives deep nesting', () => {
    expect(unsafeTextErrors(Array.from({ length: 1000 }, () => '\u0000'))).toHaveLength(20);
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unsafeTextErrors(deep)).toHaveLength(1);
    let clean: unknown = 'fine';
    for (let i = 0; i < 100_000; i++) clean = { a: [clean] };
    expect(unsafeTextErrors(clean)).toEqual([]);
  });

  it('finds a bad string or key at any depth, however clean the rest of the message', () => {
    for (const depth of [0, 1, 15, 16, 31, 32, 33, 64]) {
      let value: unknown = 'a\u0000b';
      let key: unknown = { ['k\ud800']: 1 };
      let pointer = '';
      for (let i = 0; i < depth; i++) {
        value = i % 2 === 0 ? ['ok', value] : { x: 'ok', y: value };
        key = i % 2 === 0 ? ['ok', key] : { x: 'ok', y: key };
        pointer = (i % 2 === 0 ? '/1' : '/y') + pointer;
      }
      expect(unsafeTextErrors(value)).toEqual([{ pointer: pointer || '/', detail: expect.stringMatching(/NUL/) }]);
      expect(unsafeTextErrors(key)).toEqual([{ pointer: pointer || '/', detail: expect.stringMatching(/field name/) }]);
    }
    expect(unsafeTextErrors({ n: 1, b: false, z: null, u: undefined, bytes: new Uint8Array([0]) })).toEqual([]);
  });
});

type JsonSchema = {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  exclusiveMinimum?: number;
};

/** Every integer in the JSON Schema of `schema` (as it is received) that can leave int4. */
function unboundedIntegers(schema: z.ZodType): string[] {
  const found: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const s = node as JsonSchema;
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('integer')) {
      const max = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : s.maximum;
      const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : s.minimum;
      if (max === undefined || max > INT4_MAX || min === undefined || min < INT4_MIN) found.push(at || '/');
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), '');
  return found;
}

describe('the int4 rule', () => {
  // Every message a service receives from outside it: requests, commands and work items.
  const requestSchemas = Object.entries(proto).filter(
    ([name, value]) => value instanceof z.ZodType && /(Request|Command|Chunk)Schema$/.test(name),
  ) as Array<[string, z.ZodType]>;

  it('finds the request schemas', () => {
    expect(requestSchemas.length).toBeGreaterThan(20);
  });

  // Integers that reach a bigint column (audit's bigserial sequence numbers): zod's safe-integer
  // bound is the right one there. Anything else must stay within int4.
  const BIGINT = new Set([
    'evidencePageRequestSchema/properties/afterSeq',
    'securityLogsRequestSchema/properties/beforeSeq',
  ]);

  it.each(requestSchemas)('%s keeps every integer within Postgres int4', (name, schema) => {
    expect(unboundedIntegers(schema).filter((at) => !BIGINT.has(`${name}${at}`))).toEqual([]);
  });
});
