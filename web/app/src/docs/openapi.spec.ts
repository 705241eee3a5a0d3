import { apiKeyHeader, curlExample, publicEndpoints, type OpenApiDocument } from './openapi.js';

const doc: OpenApiDocument = {
  openapi: '3.0.0',
  info: { title: 'Vigil', version: '1' },
  paths: {
    '/api/v1/screen': {
      post: {
        summary: 'Screen one name',
        security: [{ apiKey: [] }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Screen' } } } },
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
        properties: { name: { type: 'string', example: 'Jane Doe' }, entityType: { type: 'string', enum: ['person', 'organization'] } },
      },
    },
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  },
};

describe('publicEndpoints', () => {
  it('lists only /api/v1 operations with their body fields resolved through $ref', () => {
    const endpoints = publicEndpoints(doc);
    expect(endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /api/v1/screen', 'GET /api/v1/lists']);
    expect(endpoints[0]!.bodyFields).toEqual([
      { name: 'name', type: 'string', required: true, description: undefined, example: 'Jane Doe' },
      { name: 'entityType', type: 'person | organization', required: false, description: undefined, example: undefined },
    ]);
    expect(endpoints[0]!.exampleBody).toEqual({ name: 'Jane Doe' });
  });

  it('writes the curl example with the header the security scheme names', () => {
    const [screen] = publicEndpoints(doc);
    const curl = curlExample(screen!, 'https://api.example', apiKeyHeader(doc));
    expect(curl).toContain('curl -X POST "https://api.example/api/v1/screen"');
    expect(curl).toContain('-H "x-api-key: $VIGIL_API_KEY"');
    expect(curl).toContain('"name": "Jane Doe"');
  });

  it('falls back to a bearer header when the spec declares no API-key scheme', () => {
    expect(apiKeyHeader({ ...doc, components: {} })).toEqual({ header: 'Authorization', value: 'Bearer $VIGIL_API_KEY' });
  });
});
