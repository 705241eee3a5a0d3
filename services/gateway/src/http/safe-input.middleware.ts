import { DomainError } from '@vigil/platform';
import { textProblem, unsafeTextErrors, type FieldError } from '@vigil/proto';
import type { NextFunction, Request, Response } from 'express';

/**
 * The edge's half of the text rule (proto `unsafeTextErrors`): the path, the query and a JSON
 * body of every request, whatever route it is for, before any controller or guard sees it.
 * Multipart fields are read later by multer and go through `parseMessage`; the uploaded file
 * itself is checked by the upload (`uploadedTextProblem`).
 */
export function safeInputMiddleware(req: Request, _res: Response, next: NextFunction) {
  const errors: FieldError[] = [...pathErrors(req.path), ...unsafeTextErrors(req.query)];
  if (req.body !== undefined && !Buffer.isBuffer(req.body)) errors.push(...unsafeTextErrors(req.body));
  if (errors.length === 0) return next();
  next(new DomainError('VALIDATION_FAILED', 'The request contains characters that are not valid text.', errors));
}

function pathErrors(path: string): FieldError[] {
  // Without a percent-encoded part each segment decodes to itself: a clean path is clean whole.
  if (!path.includes('%') && textProblem(path) === undefined) return [];
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Not UTF-8 once decoded: the router answers that itself (400 BAD_REQUEST).
      continue;
    }
    const problem = textProblem(decoded);
    if (problem) return [{ pointer: '/', detail: `the URL path ${problem}` }];
  }
  return [];
}
