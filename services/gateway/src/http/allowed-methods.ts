import type { Request } from 'express';

type RouteLayer = {
  route?: { path: string; _methods(): string[] };
  match(path: string): unknown;
};

/**
 * The methods the app's routes take at this request's path (with HEAD beside GET, and OPTIONS),
 * or none when no route has the path. Asked only once the router found no route for the method,
 * so the requests that are served never pay for the scan.
 */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const matching = stack.filter((layer) => layer.route && layer.match(req.path));
  // As in OpenAPI, a path without parameters wins over a template (/identities/authorize is not
  // /identities/{id}, although Express would also route a DELETE of it there).
  const literal = matching.filter((layer) => !layer.route!.path.includes(':') && !layer.route!.path.includes('*'));
  const methods = new Set<string>();
  for (const layer of literal.length > 0 ? literal : matching)
    for (const method of layer.route!._methods()) methods.add(method);
  methods.delete('*');
  if (methods.size === 0) return [];
  methods.add('OPTIONS');
  return [...methods].sort();
}
