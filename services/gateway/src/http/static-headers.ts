import type { NextFunction, Request, Response } from 'express';

type Middleware = (req: Request, res: Response, next: (error?: unknown) => void) => void;

/**
 * A middleware that only sets fixed headers (helmet with static directives), run once at boot and
 * replayed as one loop of setHeader: helmet runs a chain of a dozen middlewares per request, each
 * a closure call and a `next`, for headers that never change. A middleware that does anything
 * else (reads the request, calls next asynchronously or with an error) is refused at boot.
 */
export function staticHeaders(middleware: Middleware) {
  const headers: Array<[string, string]> = [];
  let done = false;
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name, String(value)]);
    },
    removeHeader() {
      // helmet's x-powered-by: Express's own is disabled in create-app.
    },
  };
  const request = new Proxy(
    {},
    {
      get: () => {
        throw new Error('staticHeaders: the middleware reads the request');
      },
    },
  );
  middleware(request as Request, recorder as unknown as Response, (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done) throw new Error('staticHeaders: the middleware did not finish synchronously');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
