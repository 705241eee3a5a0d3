/** The small part of OpenAPI 3 the Docs page reads. */
export type SchemaObject = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
};

type ParameterObject = { name: string; in: string; required?: boolean; description?: string; schema?: SchemaObject };

type MediaObject = { schema?: SchemaObject; example?: unknown };

type ResponseObject = { description?: string; content?: Record<string, MediaObject>; $ref?: string };

type OperationObject = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
};

type SecurityScheme = { type: string; scheme?: string; name?: string; in?: string };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    securitySchemes?: Record<string, SecurityScheme>;
    responses?: Record<string, ResponseObject>;
  };
};

export type Field = { name: string; type: string; required: boolean; description?: string; example?: unknown };

/** One documented answer of an operation: its status, fields and an example body. */
export type EndpointResponse = {
  status: string;
  description: string;
  contentType: string | null;
  fields: Field[];
  example: unknown;
};

export type Endpoint = {
  method: string;
  path: string;
  summary: string;
  description?: string;
  parameters: Field[];
  bodyFields: Field[];
  exampleBody: unknown;
  responses: EndpointResponse[];
  needsApiKey: boolean;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): SchemaObject | undefined {
  if (!schema?.$ref || depth > 5) return schema;
  const name = schema.$ref.split('/').pop() ?? '';
  return resolve(doc, doc.components?.schemas?.[name], depth + 1);
}

/** The schema an object-like union or intersection stands for: its first object member. */
function objectOf(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  const resolved = resolve(doc, schema);
  if (!resolved) return undefined;
  const members = resolved.allOf ?? resolved.anyOf ?? resolved.oneOf;
  if (!resolved.properties && members)
    return members.map((m) => resolve(doc, m)).find((m) => m?.properties) ?? resolved;
  return resolved;
}

function typeOf(doc: OpenApiDocument, schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  const resolved = resolve(doc, schema) ?? schema;
  if (resolved.enum) return resolved.enum.map(String).join(' | ');
  const members = resolved.anyOf ?? resolved.oneOf;
  if (members) return members.map((m) => typeOf(doc, m)).join(' | ');
  const type = Array.isArray(resolved.type) ? resolved.type.join(' | ') : (resolved.type ?? 'object');
  if (type === 'array') return `${typeOf(doc, resolved.items)}[]`;
  return resolved.format ? `${type} (${resolved.format})` : type;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  date: '2026-01-31',
  'date-time': '2026-01-31T12:00:00Z',
  email: 'analyst@example.com',
  uuid: '3f2b8c1e-9a4d-4e0b-8f6a-2c1d5e7f9a0b',
  uri: 'https://example.com',
};

/**
 * An example value that satisfies the schema as far as the document describes it: the
 * schema's own example first, else one built from its type, format, enum, minimum and
 * minItems (an array gets as many items as it must have, never fewer than one).
 */
export function exampleFromSchema(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): unknown {
  const resolved = resolve(doc, schema);
  if (!resolved || depth > 8) return null;
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.examples?.length) return resolved.examples[0];
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum?.length) return resolved.enum[0];
  const members = resolved.allOf ?? resolved.anyOf ?? resolved.oneOf;
  if (members && !resolved.type && !resolved.properties) {
    const parts = members.map((m) => exampleFromSchema(doc, m, depth + 1));
    if (resolved.allOf && parts.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p))) {
      return Object.assign({}, ...parts);
    }
    return parts.find((p) => p !== null) ?? null;
  }
  const type = Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
  switch (type ?? (resolved.properties ? 'object' : undefined)) {
    case 'object': {
      const required = new Set(resolved.required ?? []);
      const entries = Object.entries(resolved.properties ?? {});
      // Required fields, else every field: an example shows what a call needs, or what an answer holds.
      const shown =
        required.size > 0 && entries.length > required.size * 3
          ? entries.filter(([name]) => required.has(name))
          : entries;
      return Object.fromEntries(shown.map(([name, property]) => [name, exampleFromSchema(doc, property, depth + 1)]));
    }
    case 'array':
      return Array.from({ length: Math.max(1, resolved.minItems ?? 1) }, () =>
        exampleFromSchema(doc, resolved.items, depth + 1),
      );
    case 'integer':
      return Math.max(resolved.minimum ?? 1, 0);
    case 'number':
      return resolved.minimum ?? 0.9;
    case 'boolean':
      return true;
    case 'string':
      return (resolved.format && FORMAT_EXAMPLES[resolved.format]) ?? 'string';
    default:
      return null;
  }
}

function fieldsOf(doc: OpenApiDocument, schema: SchemaObject | undefined): Field[] {
  const body = objectOf(doc, schema);
  const required = new Set(body?.required ?? []);
  return Object.entries(body?.properties ?? {}).map(([name, raw]) => {
    const property = resolve(doc, raw);
    return {
      name,
      type: typeOf(doc, raw),
      required: required.has(name),
      description: property?.description,
      example: property?.example,
    };
  });
}

function firstContent(content: Record<string, MediaObject> | undefined): [string, MediaObject] | null {
  const entries = Object.entries(content ?? {});
  return entries.find(([type]) => type === 'application/json') ?? entries[0] ?? null;
}

/** The public API's operations (paths under /api/v1), in the order the document lists them. */
export function publicEndpoints(doc: OpenApiDocument, prefix = '/api/v1/'): Endpoint[] {
  const globalSecurity = (doc as { security?: unknown[] }).security;
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(prefix)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const json = operation.requestBody?.content?.['application/json'];
      const responses = Object.entries(operation.responses ?? {}).map(([status, given]): EndpointResponse => {
        // The problem statuses are shared responses (components.responses), referred to by $ref.
        const response = given.$ref ? (doc.components?.responses?.[given.$ref.split('/').pop()!] ?? {}) : given;
        const media = firstContent(response.content);
        return {
          status,
          description: response.description ?? '',
          contentType: media?.[0] ?? null,
          fields: fieldsOf(doc, media?.[1].schema),
          example: media ? (media[1].example ?? exampleFromSchema(doc, media[1].schema)) : null,
        };
      });
      endpoints.push({
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        description: operation.description,
        parameters: (operation.parameters ?? []).map((p) => ({
          name: `${p.name} (${p.in})`,
          type: typeOf(doc, p.schema),
          required: p.required ?? false,
          description: p.description,
        })),
        bodyFields: fieldsOf(doc, json?.schema),
        exampleBody: json ? (json.example ?? exampleFromSchema(doc, json.schema)) : null,
        responses,
        needsApiKey: (operation.security ?? globalSecurity ?? []).length > 0,
      });
    }
  }
  return endpoints;
}

/** The header the API key goes in, as the document's security schemes say (the public API's is `x-api-key`). */
export function apiKeyHeader(doc: OpenApiDocument): string | null {
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {})) {
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) return scheme.name;
  }
  return null;
}

/** The gateway's address as the document gives it; never the web app's own host. */
export function apiBaseUrl(doc: OpenApiDocument): string | null {
  const url = doc.servers?.find((server) => /^https?:\/\//.test(server.url))?.url;
  return url ? url.replace(/\/$/, '') : null;
}
