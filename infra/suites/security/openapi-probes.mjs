// Reads the gateway's /openapi.json into the operations the security suite probes, and builds
// requests from their schemas: a route added tomorrow is probed without a line written for it.

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * @typedef {{ method: string, path: string, security: Array<Record<string,string[]>>, pathParams: string[],
 *   query: Array<{name: string, schema: any, required: boolean}>, jsonBody: any | undefined, bodyRequired: boolean,
 *   multipart: boolean, tags: string[] }} Operation
 */

/** @returns {Operation[]} */
export function operationsOf(document) {
  const operations = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(document, p));
      const content = resolve(document, op.requestBody ?? {})?.content ?? {};
      const json = content['application/json']?.schema;
      operations.push({
        method,
        path,
        security: op.security ?? document.security ?? [],
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        pathSchemas: Object.fromEntries(
          parameters.filter((p) => p.in === 'path').map((p) => [p.name, resolve(document, p.schema ?? {})]),
        ),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(document, p.schema ?? {}), required: !!p.required })),
        jsonBody: json ? resolveDeep(document, json) : undefined,
        bodyRequired: !!op.requestBody?.required || !!json?.required?.length,
        multipart: !!content['multipart/form-data'],
        tags: op.tags ?? [],
      });
    }
  }
  return operations;
}

function resolve(document, node) {
  if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return node;
  return node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at, key) => at?.[key], document);
}

function resolveDeep(document, node, depth = 0) {
  if (depth > 20 || !node || typeof node !== 'object') return node;
  const resolved = resolve(document, node);
  if (Array.isArray(resolved)) return resolved.map((n) => resolveDeep(document, n, depth + 1));
  return Object.fromEntries(Object.entries(resolved).map(([k, v]) => [k, resolveDeep(document, v, depth + 1)]));
}

/** What a caller must present: 'public', 'api-key', 'session', 'api-key+session' or 'admin'. */
export function credentialsOf(op) {
  if (op.security.length === 0) return 'public';
  if (op.security.some((s) => 'adminSession' in s)) return 'admin';
  const needsKeyOnly = op.security.every((s) => 'apiKey' in s && !('session' in s));
  if (needsKeyOnly) return 'api-key';
  if (op.security.some((s) => 'session' in s && !('apiKey' in s))) return 'session';
  return 'api-key+session';
}

/** A value the schema accepts, as small as it allows: the body a probe starts from. */
export function sample(schema, depth = 0) {
  if (!schema || depth > 8) return undefined;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return sample(alternatives.find((a) => a.type !== 'null') ?? alternatives[0], depth + 1);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sample(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out = {};
      for (const key of schema.required ?? [])
        out[key] = sample(schema.properties?.[key] ?? { type: 'string' }, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sample(schema.items ?? { type: 'string' }, depth + 1),
      );
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string':
    default:
      return sampleString(schema);
  }
}

function sampleString(schema) {
  if (schema.format === 'email') return 'security-probe@example.com';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/security-probe';
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'date-time') return new Date().toISOString();
  if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
  const min = schema.minLength ?? 1;
  return 'security-probe'.padEnd(min, 'x').slice(0, schema.maxLength ?? 300);
}

/** Replaces every string in a value (keys kept) with `replacement`. */
export function everyString(value, replacement) {
  if (typeof value === 'string') return replacement;
  if (Array.isArray(value)) return value.map((v) => everyString(v, replacement));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyString(v, replacement)]));
  return value;
}

export function hasString(value) {
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.some(hasString);
  if (value && typeof value === 'object') return Object.values(value).some(hasString);
  return false;
}

/** The path with each parameter filled by `fill(name)` (already URL-encoded when needed). */
export function fillPath(op, fill) {
  return op.path.replace(/\{([^}]+)\}/g, (_, name) => fill(name));
}

/** A value for a path parameter that is not an id (an enum, a pattern-bound name). */
export function samplePathValue(op, name) {
  const schema = op.pathSchemas[name] ?? {};
  if (schema.enum) return encodeURIComponent(schema.enum[0]);
  return encodeURIComponent(sampleString({ ...schema, format: schema.format }));
}

/** The query string a route needs (required parameters sampled). */
export function sampleQuery(op, overrides = {}) {
  const params = new URLSearchParams();
  for (const q of op.query) {
    if (q.name in overrides) continue;
    if (q.required) params.set(q.name, String(sample(q.schema)));
  }
  for (const [k, v] of Object.entries(overrides)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}
