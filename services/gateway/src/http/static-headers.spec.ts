import type { Request, Response } from 'express';
import helmet from 'helmet';
import { staticHeaders } from './static-headers.js';

/** The headers a middleware sets on a response, by lower-cased name. */
function headersSetBy(middleware: (req: Request, res: Response, next: () => void) => void) {
  const set: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => (set[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  let nextCalled = false;
  middleware({} as Request, res as unknown as Response, () => (nextCalled = true));
  return { set, nextCalled };
}

describe('staticHeaders', () => {
  it("sets exactly helmet's headers, with the gateway's options, and goes on", () => {
    const options = {
      contentSecurityPolicy: { directives: { frameAncestors: ["'none'"], upgradeInsecureRequests: [] } },
      frameguard: { action: 'deny' as const },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    };
    const replayed = headersSetBy(staticHeaders(helmet(options)));
    expect(replayed.nextCalled).toBe(true);
    expect(replayed.set).toEqual(headersSetBy(helmet(options)).set);
    expect(replayed.set['x-frame-options']).toBe('DENY');
    expect(replayed.set['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('refuses a middleware whose headers depend on the request', () => {
    expect(() => staticHeaders((req, res, next) => (res.setHeader('x-path', req.path), next()))).toThrow(
      /reads the request/,
    );
  });

  it('refuses a middleware that does not finish at once', () => {
    expect(() => staticHeaders((_req, _res, next) => void setTimeout(next, 0))).toThrow(/synchronously/);
  });
});
