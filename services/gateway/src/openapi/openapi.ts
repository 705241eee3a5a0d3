import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { VIGIL_VERSION } from '@vigil/platform';
import type { NextFunction, Request, Response } from 'express';
import { FORWARDS_SESSION } from '../http/route-params.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const IDEMPOTENCY_KEY_DESCRIPTION =
  'A retry with the same key and body gets the first successful answer again (`Idempotent-Replayed: true`); ' +
  'the same key with another body is 422 `IDEMPOTENCY_KEY_REUSED`. While the first attempt is still running, a retry ' +
  'is 409 `CONFLICT` with `Retry-After`; if the gateway serving it failed, a retry runs it about 10 s after that ' +
  'gateway was last seen working.';

/** The OpenAPI 3.1 document of every route the app serves, generated from the controllers. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Vigil API')
    .setDescription(
      'Sanctions and PEP screening. The public API v1 takes `x-api-key`; dashboard calls take the key and the session token of a user of the same client; ' +
        'administration takes the session token. Errors are application/problem+json (RFC 9457). POST accepts Idempotency-Key (≤ 255 characters, kept ≥ 24 h).',
    )
    .setVersion(VIGIL_VERSION)
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: "A client's API key: 64 lowercase hex characters.",
      },
      'apiKey',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A session access token from /auth/v1/token (RS256).',
      },
      'session',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'A session access token from /auth/v1/token of a user with the administrator role; any other ' +
          "user's session is 403 FORBIDDEN, and a password-only session of a user with a second factor 403 MFA_REQUIRED.",
      },
      'adminSession',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.openapi = '3.1.0';
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    Problem: {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['pointer', 'detail'],
            properties: { pointer: { type: 'string' }, detail: { type: 'string' } },
          },
        },
        instance: { type: 'string' },
        requestId: { type: 'string' },
      },
    },
  };
  const tags = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const tag of operation.tags ?? []) tags.add(tag);
      // Routes that forward the bearer token to auth carry no @Credentials: the session scheme is theirs.
      const forwardsSession = (operation as unknown as Record<string, unknown>)[FORWARDS_SESSION] === true;
      delete (operation as unknown as Record<string, unknown>)[FORWARDS_SESSION];
      operation.security ??= forwardsSession ? [{ session: [] }] : [];
      if (method === 'post') {
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', maxLength: 255 },
            description: IDEMPOTENCY_KEY_DESCRIPTION,
          },
        ];
      }
      operation.responses = {
        ...operation.responses,
        default: {
          description: 'A problem (RFC 9457).',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      };
    }
  }
  // Every tag an operation names is declared once at the top (the docs page's sections, in order).
  document.tags = [...tags].map((name) => document.tags?.find((tag) => tag.name === name) ?? { name });
  return document;
}

/** Serves the document at /openapi.json and Swagger UI at /docs. */
export function serveOpenApi(app: INestApplication) {
  const document = buildOpenApiDocument(app);
  // `servers` names the gateway as the caller reached it (its Host header: a reverse proxy or the
  // web apps' dev proxy passes the gateway's public address), so the Docs page never shows the web host.
  app.use('/openapi.json', (req: Request, res: Response, next: NextFunction) => {
    const host = req.get('host');
    if (req.method !== 'GET' || !host) return next();
    res.json({ ...document, servers: [{ url: `${req.protocol}://${host}` }] });
  });
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}
