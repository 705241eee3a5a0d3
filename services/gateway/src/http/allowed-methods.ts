import type { Request } from 'express';

type RouteLayer = {
  route?: { _methods(): string[] };
  match(path: string): unknown;
};

/**
 * The methods the app's routes take at this request's path (with HEAD beside GET, and OPTIONS),
 * or none when no route has the path. Asked only once the router found no route for the method,
 * so the requests that are served never pay for the scan.
 */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack)
    if (layer.route && layer.match(req.path)) for (const method of layer.route._methods()) methods.add(method);
  methods.delete('*');
  if (methods.size === 0) return [];
  methods.add('OPTIONS');
  return [...methods].sort();
}
