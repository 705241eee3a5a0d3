import type { z } from 'zod';
import { DomainError, fieldErrorsFromZod } from './errors.js';

/** Validates a message against its `proto/` schema where it is received. */
export function parseMessage<S extends z.ZodType>(schema: S, data: unknown, what = 'message'): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new DomainError('VALIDATION_FAILED', `The ${what} is invalid.`, fieldErrorsFromZod(result.error));
  }
  return result.data;
}
