import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Entity } from '../src/entity.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export function fixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + path));
}

/**
 * A fixture as a byte stream cut into small chunks, so every parser is exercised across chunk
 * boundaries: inside quoted fields, between CR and LF, inside multi-byte UTF-8 characters.
 */
export async function* fixture(path: string, chunkSize = 13): AsyncGenerator<Uint8Array> {
  yield* chunks(fixtureBytes(path), chunkSize);
}

export async function* chunks(bytes: Uint8Array, chunkSize = 13): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
}

export async function* textBytes(text: string, chunkSize = 13): AsyncGenerator<Uint8Array> {
  yield* chunks(new TextEncoder().encode(text), chunkSize);
}

export async function collect<T>(source: AsyncIterable<T> | Promise<T[]>): Promise<T[]> {
  if (source instanceof Promise) return source;
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

export function bySourceId(entities: readonly Entity[], sourceId: string): Entity {
  const entity = entities.find((e) => e.sourceId === sourceId);
  if (!entity) throw new Error(`no entity ${sourceId} among ${entities.map((e) => e.sourceId).join(', ')}`);
  return entity;
}

export function names(entity: Entity): string[] {
  return entity.names.map((n) => `${n.strength}:${n.full}`);
}
