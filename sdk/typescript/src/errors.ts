import type { components } from './schema.js';

/** An application/problem+json body (RFC 9457) as the gateway sends it. */
export type Problem = components['schemas']['Problem'];

/** Anything the client could not turn into an answer: the network, after its retries. */
export class VigilError extends Error {
  override name = 'VigilError';
}

/**
 * The gateway answered with a problem: `status` and its stable `code` (the Docs page's Errors tab
 * lists them), `detail`, and `errors` with a JSON `pointer` per field. `response` is the answer, for
 * its headers (Retry-After, x-request-id).
 */
export class VigilProblemError extends VigilError {
  override name = 'VigilProblemError';
  readonly problem: Problem;
  readonly response: Response;

  constructor(problem: Problem, response: Response) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.problem = problem;
    this.response = response;
  }

  get status(): number {
    return this.problem.status;
  }

  get code(): Problem['code'] {
    return this.problem.code;
  }

  get detail(): string {
    return this.problem.detail;
  }

  get errors(): NonNullable<Problem['errors']> {
    return this.problem.errors ?? [];
  }
}

function isProblem(body: unknown): body is Problem {
  const candidate = body as Partial<Problem> | null | undefined;
  return typeof candidate?.code === 'string' && typeof candidate.status === 'number';
}

/**
 * The 2xx body of a call's `{ data, error, response }`, or a thrown VigilProblemError for any
 * other answer: `const answer = unwrap(await vigil.POST('/api/v1/screen', { body }))`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  const { data, error, response } = result;
  if (response.ok) return data as T;
  if (isProblem(error)) throw new VigilProblemError(error, response);
  // Not from the gateway (a proxy's HTML page, say): still a typed problem with the status.
  const text = typeof error === 'string' ? error : JSON.stringify(error ?? '');
  const problem: Problem = {
    type: 'about:blank',
    title: 'HTTP error',
    status: response.status,
    detail: text.slice(0, 200),
    code: 'HTTP_ERROR',
  };
  throw new VigilProblemError(problem, response);
}
