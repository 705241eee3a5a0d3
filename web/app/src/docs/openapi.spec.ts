import { apiBaseUrl, apiKeyHeader, exampleFromSchema, publicEndpoints, type OpenApiDocument } from './openapi.js';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Vigil', version: '1' },
  servers: [{ url: 'http://127.0.0.1:8080/' }],
  paths: {
    '/api/v1/screen': {
      post: {
        summary: 'Screen one name',
        security: [{ apiKey: [] }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Screen' } } } },
        responses: {
          '200': {
            description: 'The best matches',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ScreenResult' } } },
          },
          default: {
            description: 'A problem (RFC 9457).',
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          },
        },
      },
    },
    '/api/v1/bulk-screen': {
      post: {
        security: [{ apiKey: [] }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['names'],
                properties: {
                  names: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
                  limit: { type: 'integer', minimum: 1 },
                },
              },
            },
          },
        },
      },
    },
    '/api/v1/lists': { get: { summary: 'List catalogue', security: [{ apiKey: [] }] } },
    '/auth/v1/token': { post: { summary: 'Sign in' } },
  },
  components: {
    schemas: {
      Screen: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', example: 'Jane Doe' },
          entityType: { type: 'string', enum: ['person', 'organization'] },
        },
      },
      ScreenResult: {
        type: 'object',
        required: ['results'],
        properties: {
          results: {
            type: 'array',
            items: {
              type: 'object',
              properties: { score: { type: 'number', minimum: 0 }, listedOn: { type: 'string', format: 'date' } },
            },
          },
        },
      },
      Problem: {
        type: 'object',
        required: ['code'],
        properties: {
          code: { type: 'string', example: 'VALIDATION_FAILED' },
          status: { type: 'integer', example: 400 },
        },
      },
    },
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  },
};

describe('publicEndpoints', () => {
  it('lists only /api/v1 operations with their body fields resolved through $ref', () => {
    const endpoints = publicEndpoints(doc);
    expect(endpoints.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /api/v1/screen',
      'POST /api/v1/bulk-screen',
      'GET /api/v1/lists',
    ]);
    expect(endpoints[0]!.bodyFields).toEqual([
      { name: 'name', type: 'string', required: true, description: undefined, example: 'Jane Doe' },
      {
        name: 'entityType',
        type: 'person | organization',
        required: false,
        description: undefined,
        example: undefined,
      },
    ]);
    expect(endpoints[0]!.exampleBody).toEqual({ name: 'Jane Doe', entityType: 'person' });
  });

  it('documents each response with its fields and an example body', () => {
    const [screen] = publicEndpoints(doc);
    expect(screen!.responses.map((r) => [r.status, r.contentType])).toEqual([
      ['200', 'application/json'],
      ['default', 'application/problem+json'],
    ]);
    expect(screen!.responses[0]!.fields.map((f) => `${f.name}: ${f.type}`)).toEqual(['results: object[]']);
    expect(screen!.responses[0]!.example).toEqual({ results: [{ score: 0, listedOn: '2026-01-31' }] });
    expect(screen!.responses[1]!.example).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('never offers an example the schema rejects: a list that needs an item gets one', () => {
    const bulk = publicEndpoints(doc)[1]!;
    expect(bulk.exampleBody).toEqual({ names: ['string'], limit: 1 });
  });

  it('takes the key header from the security scheme and the base URL from servers, never the web host', () => {
    expect(apiKeyHeader(doc)).toBe('x-api-key');
    expect(apiKeyHeader({ ...doc, components: {} })).toBeNull();
    expect(apiBaseUrl(doc)).toBe('http://127.0.0.1:8080');
    expect(apiBaseUrl({ ...doc, servers: [] })).toBeNull();
  });
});

describe('exampleFromSchema', () => {
  it('prefers the schema’s own example, then enum, then a typed value', () => {
    expect(exampleFromSchema(doc, { type: 'string', examples: ['x'] })).toBe('x');
    expect(exampleFromSchema(doc, { type: 'string', format: 'email' })).toBe('analyst@example.com');
    expect(exampleFromSchema(doc, { type: 'array', minItems: 2, items: { type: 'integer', minimum: 3 } })).toEqual([
      3, 3,
    ]);
    expect(exampleFromSchema(doc, { anyOf: [{ type: 'null' }, { type: 'boolean' }] })).toBe(true);
  });
});
