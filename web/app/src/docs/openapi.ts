/** The small part of OpenAPI 3 the Docs page reads. */
export type SchemaObject = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  enum?: unknown[];
  example?: unknown;
  format?: string;
};

type ParameterObject = { name: string; in: string; required?: boolean; description?: string; schema?: SchemaObject };

type OperationObject = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject; example?: unknown }> };
  security?: Record<string, string[]>[];
};

type SecurityScheme = { type: string; scheme?: string; name?: string; in?: string };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject>; securitySchemes?: Record<string, SecurityScheme> };
};

export type Field = { name: string; type: string; required: boolean; description?: string; example?: unknown };

export type Endpoint = {
  method: string;
  path: string;
  summary: string;
  description?: string;
  parameters: Field[];
  bodyFields: Field[];
  exampleBody: Record<string, unknown> | null;
  needsApiKey: boolean;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): SchemaObject | undefined {
  if (!schema?.$ref || depth > 5) return schema;
  const name = schema.$ref.split('/').pop() ?? '';
  return resolve(doc, doc.components?.schemas?.[name], depth + 1);
}

function typeOf(schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object');
  if (type === 'array') return `${typeOf(schema.items)}[]`;
  return schema.enum ? schema.enum.map(String).join(' | ') : type;
}

function sampleValue(type: string): unknown {
  if (type.includes(' | ')) return type.split(' | ')[0];
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type.endsWith('[]')) return [];
  return `<${type}>`;
}

/** The public API's operations (paths under /api/v1), in the order the spec lists them. */
export function publicEndpoints(doc: OpenApiDocument, prefix = '/api/v1/'): Endpoint[] {
  const globalSecurity = (doc as { security?: unknown[] }).security;
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(prefix)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const json = operation.requestBody?.content?.['application/json'];
      const body = resolve(doc, json?.schema);
      const required = new Set(body?.required ?? []);
      const bodyFields: Field[] = Object.entries(body?.properties ?? {}).map(([name, raw]) => {
        const schema = resolve(doc, raw);
        return { name, type: typeOf(schema), required: required.has(name), description: schema?.description, example: schema?.example };
      });
      // The spec's own example, else its required fields (or, when none are marked, every field) with sample values.
      const shown = bodyFields.filter((f) => f.required || f.example !== undefined);
      const exampleBody =
        (json?.example as Record<string, unknown> | undefined) ??
        (bodyFields.length > 0 ? Object.fromEntries((shown.length > 0 ? shown : bodyFields).map((f) => [f.name, f.example ?? sampleValue(f.type)])) : null);
      endpoints.push({
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        description: operation.description,
        parameters: (operation.parameters ?? []).map((p) => ({
          name: `${p.name} (${p.in})`,
          type: typeOf(resolve(doc, p.schema)),
          required: p.required ?? false,
          description: p.description,
        })),
        bodyFields,
        exampleBody,
        needsApiKey: (operation.security ?? globalSecurity ?? []).length > 0,
      });
    }
  }
  return endpoints;
}

/** How a request proves who it is, as the spec's security schemes say: a header name and a value template. */
export function apiKeyHeader(doc: OpenApiDocument): { header: string; value: string } {
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {})) {
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) return { header: scheme.name, value: '$VIGIL_API_KEY' };
  }
  return { header: 'Authorization', value: 'Bearer $VIGIL_API_KEY' };
}

export function curlExample(endpoint: Endpoint, baseUrl: string, auth: { header: string; value: string }): string {
  const lines = [`curl -X ${endpoint.method} "${baseUrl}${endpoint.path}"`];
  if (endpoint.needsApiKey) lines.push(`  -H "${auth.header}: ${auth.value}"`);
  if (endpoint.exampleBody) {
    lines.push('  -H "Content-Type: application/json"');
    lines.push(`  -d '${JSON.stringify(endpoint.exampleBody, null, 2).replace(/\n/g, '\n  ')}'`);
  }
  return lines.join(' \\\n');
}
