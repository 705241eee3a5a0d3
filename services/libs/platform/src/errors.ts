import type { ErrorCode, FieldError, RpcError } from '@vigil/proto';
import type { ZodError } from 'zod';

/** A failure the caller can act on. Its code is part of the public contract. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toRpcError(): RpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
    };
  }
}

/** Zod issues as JSON Pointers into the input, the form RFC 9457 clients expect. */
export function fieldErrorsFromZod(error: ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({
    pointer: `${prefix}/${issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`.replace(/\/$/, '') || '/',
    detail: issue.message,
  }));
}
