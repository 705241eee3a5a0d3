import type { DataSource, EntityManager } from 'typeorm';

/** DataSource or a transaction's EntityManager: repositories take either. */
export type Queryable = Pick<DataSource | EntityManager, 'query'>;

/** Parameterised SQL answering rows, whether TypeORM answered rows or [rows, rowCount] (UPDATE/DELETE … RETURNING). */
export async function sql<T = Record<string, unknown>>(q: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await q.query(text, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
