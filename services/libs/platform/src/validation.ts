import { unsafeTextErrors } from '@vigil/proto';
import type { z } from 'zod';
import { DomainError, fieldErrorsFromZod } from './errors.js';

/**
 * Validates a message against its `proto/` schema where it is received. Before the schema, the
 * text rule every message obeys (proto's `unsafeTextErrors`: no NUL, no unpaired surrogate in any
 * string), so a schema cannot forget it and Postgres never sees such a string.
 */
export function parseMessage<S extends z.ZodType>(schema: S, data: unknown, what = 'message'): z.infer<S> {
  const unsafe = unsafeTextErrors(data);
  if (unsafe.length > 0) {
    throw new DomainError('VALIDATION_FAILED', `The ${what} contains characters that are not valid text.`, unsafe);
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new DomainError('VALIDATION_FAILED', `The ${what} is invalid.`, fieldErrorsFromZod(result.error));
  }
  return result.data;
}
