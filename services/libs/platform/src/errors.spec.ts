import { z } from 'zod';
import { DomainError, fieldErrorsFromZod } from './errors.js';
import { parseMessage } from './validation.js';

describe('validation errors', () => {
  const schema = z.object({ name: z.string().min(1), items: z.array(z.object({ 'a/b': z.number() })) });

  it('reports each failing field as a JSON Pointer', () => {
    const result = schema.safeParse({ name: '', items: [{ 'a/b': 'x' }] });
    expect(result.success).toBe(false);
    const pointers = fieldErrorsFromZod(result.error!).map((e) => e.pointer).sort();
    expect(pointers).toEqual(['/items/0/a~1b', '/name']);
  });

  it('parseMessage throws a VALIDATION_FAILED domain error that serialises without a stack', () => {
    try {
      parseMessage(schema, { items: [] }, 'screening request');
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      const rpc = (error as DomainError).toRpcError();
      expect(rpc.code).toBe('VALIDATION_FAILED');
      expect(rpc.message).toBe('The screening request is invalid.');
      expect(rpc.errors?.[0]?.pointer).toBe('/name');
      expect(JSON.stringify(rpc)).not.toContain('at ');
    }
  });

  it('parseMessage refuses a NUL or a lone surrogate in any string, whatever the schema says', () => {
    const permissive = z.object({ name: z.string(), notes: z.array(z.string()) });
    for (const [data, pointer] of [
      [{ name: 'Kim\u0000Jong', notes: [] }, '/name'],
      [{ name: 'Kim', notes: ['ok', '\ud800'] }, '/notes/1'],
    ] as const) {
      expect(() => parseMessage(permissive, data, 'request')).toThrow(DomainError);
      try {
        parseMessage(permissive, data, 'request');
      } catch (error) {
        expect((error as DomainError).code).toBe('VALIDATION_FAILED');
        expect((error as DomainError).errors?.map((e) => e.pointer)).toEqual([pointer]);
      }
    }
    expect(parseMessage(permissive, { name: 'Ali 🙂', notes: [] })).toEqual({ name: 'Ali 🙂', notes: [] });
  });
});
