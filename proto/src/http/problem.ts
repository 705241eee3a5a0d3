import type { ErrorCode, FieldError } from '../errors.js';

/** RFC 9457 problem details, as every gateway error is answered. */
export type ProblemDetails = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  instance?: string;
  requestId?: string;
};
