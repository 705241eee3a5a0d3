import { REQUEST_ID_HEADER } from '@vigil/proto';
import { runWithRequestId, currentRequestId } from '@vigil/platform';
import type { NextFunction, Request, Response } from 'express';

/** Gives every request an id (the caller's if well-formed), echoes it, and scopes it for logs and NATS. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction) {
  runWithRequestId(req.header(REQUEST_ID_HEADER), () => {
    res.setHeader(REQUEST_ID_HEADER, currentRequestId()!);
    next();
  });
}
