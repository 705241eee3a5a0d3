import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { VIGIL_VERSION } from '@vigil/platform';
import { ERROR_HTTP_STATUS, ERROR_TITLES, type ErrorCode } from '@vigil/proto';
import type { NextFunction, Request, Response } from 'express';
import { ANY_PLAN_EXTENSION, MEMBER_ROLE_EXTENSION, PLAN_FEATURE_EXTENSION } from '../credentials/credentials.js';
import { FORWARDS_SESSION } from '../http/route-params.js';
import { IDEMPOTENT_EXTENSION } from '../idempotency/idempotency.interceptor.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const IDEMPOTENCY_KEY_DESCRIPTION =
  'A retry with the same key and body gets the first successful answer again (`Idempotent-Replayed: true`); ' +
  'the same key with another body is 422 `IDEMPOTENCY_KEY_REUSED`. While the first attempt is still running, a retry ' +
  'is 409 `CONFLICT` with `Retry-After`; if the gateway serving it failed, a retry runs it about 10 s after that ' +
  'gateway was last seen working.';

type Operation = OpenAPIObject['paths'][string]['get'] & object;

/** `key-or-session` (credentials.ts): a session, the key alone, or both. */
function keyOrSession(schemes: string[][]): boolean {
  const alone = (scheme: string) => schemes.some((r) => r.length === 1 && r[0] === scheme);
  return alone('apiKey') && alone('session');
}

const CALLERS: ReadonlyArray<[test: (schemes: string[][]) => boolean, words: string]> = [
  [(s) => s.length === 0, 'Public: no credentials.'],
  [
    (s) => s.some((r) => r.includes('adminSession')),
    "Takes an administrator's session token (`Authorization: Bearer`).",
  ],
  [
    (s) => s.length === 2,
    "Takes the session token of a member of a client; the client's own API key may come with it (`x-api-key`).",
  ],
  [
    keyOrSession,
    "Takes the client's API key alone (`x-api-key`: a server; team roles do not apply to a key) or the session " +
      'token of a member of a client (`Authorization: Bearer`).',
  ],
  [(s) => s.every((r) => r.length === 1 && r[0] === 'apiKey'), "Takes the client's API key (`x-api-key`)."],
  [() => true, 'Takes a session token (`Authorization: Bearer`).'],
];

const PLAN_FEATURE_WORDS: Readonly<Record<string, string>> = {
  webhookNotifications: 'webhook notifications',
  realTimeUpdates: 'real-time updates',
  webSocketAccess: 'the live stream',
};

/**
 * An operation's description from what the gateway enforces on it (its credentials, team role,
 * plan feature, body validation, idempotency): read from the decorators the guards read, so it
 * cannot say something the route does not do.
 */
function describeOperation(operation: Operation, extensions: Record<string, unknown>, idempotent: boolean): string {
  const schemes = (operation.security ?? []).map((requirement) => Object.keys(requirement));
  const lines = [`${operation.summary ?? 'This operation'}.`, CALLERS.find(([test]) => test(schemes))![1]];
  const role = extensions[MEMBER_ROLE_EXTENSION];
  if (typeof role === 'string')
    lines.push(
      `The member needs the ${role} role or higher (viewer < analyst < supervisor < owner): 403 ROLE_FORBIDDEN.`,
    );
  const feature = extensions[PLAN_FEATURE_EXTENSION];
  if (typeof feature === 'string')
    lines.push(`The client's plan must include ${PLAN_FEATURE_WORDS[feature] ?? feature}: 403 FEATURE_NOT_IN_PLAN.`);
  // A key alone is held to the same plan as a session on a key-or-session route (credentials.guard.ts).
  else if ((schemes.length === 2 || keyOrSession(schemes)) && extensions[ANY_PLAN_EXTENSION] !== true)
    lines.push("The client's plan must include the dashboard: 403 FEATURE_NOT_IN_PLAN.");
  if (operation.requestBody)
    lines.push(
      'The body is checked against its schema: a value out of bounds or a field it does not name is ' +
        '400 VALIDATION_FAILED with a JSON pointer per field.',
    );
  if (idempotent) lines.push('Idempotency-Key makes a retry safe: the first answer is replayed.');
  return lines.join(' ');
}

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** A problem status with the stable codes it carries here, each with the title every answer gives it. */
function problemResponse(codes: readonly ErrorCode[]) {
  const [first] = codes;
  return {
    description: codes.map((code) => `\`${code}\` (${ERROR_TITLES[code]})`).join(', '),
    content: {
      'application/problem+json': {
        ...PROBLEM['application/problem+json'],
        example: {
          type: `https://vigil.dev/problems/${first!.toLowerCase().replace(/_/g, '-')}`,
          title: ERROR_TITLES[first!],
          status: ERROR_HTTP_STATUS[first!],
          detail: ERROR_TITLES[first!],
          code: first,
        },
      },
    },
  };
}

/** The shared responses the operations refer to (components.responses), each written once. */
const sharedProblems = new Map<string, ReturnType<typeof problemResponse>>();

/** A reference to the shared response for these codes, e.g. `#/components/responses/RateLimitedOrQuotaExceeded`. */
function problem(codes: readonly ErrorCode[]) {
  const name = codes
    .map((code) =>
      code
        .toLowerCase()
        .split('_')
        .map((word) => word[0]!.toUpperCase() + word.slice(1))
        .join(''),
    )
    .join('Or');
  if (!sharedProblems.has(name)) sharedProblems.set(name, problemResponse(codes));
  return { $ref: `#/components/responses/${name}` };
}

/**
 * The problems an operation can answer, by status, from what the gateway does on every route of
 * its kind (credentials, body, path parameters, idempotency, rate limits, backends); `default`
 * still covers the service-specific ones (402, 410, 504…).
 */
function problemResponses(path: string, method: string, operation: Operation, idempotent: boolean) {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const session = schemes.includes('session') || schemes.includes('adminSession');
  const input = operation.requestBody !== undefined || (operation.parameters ?? []).length > 0;
  const responses: Record<string, { $ref: string }> = {};
  if (input || path.includes('{')) responses['400'] = problem(['VALIDATION_FAILED', 'BAD_REQUEST']);
  if (schemes.length > 0)
    responses['401'] = problem(
      schemes.includes('apiKey') && !session ? ['INVALID_API_KEY'] : ['UNAUTHENTICATED', 'INVALID_API_KEY'],
    );
  if (session) responses['403'] = problem(['FORBIDDEN', 'ROLE_FORBIDDEN', 'MFA_REQUIRED', 'FEATURE_NOT_IN_PLAN']);
  if (path.includes('{')) responses['404'] = problem(['NOT_FOUND']);
  if (idempotent) {
    responses['409'] = problem(['CONFLICT']);
    responses['422'] = problem(['IDEMPOTENCY_KEY_REUSED']);
  }
  if (operation.requestBody !== undefined || method === 'post' || method === 'put' || method === 'patch') {
    responses['413'] = problem(['PAYLOAD_TOO_LARGE']);
    responses['415'] = problem(['UNSUPPORTED_MEDIA_TYPE']);
  }
  if (schemes.length > 0)
    responses['429'] = problem(path.startsWith('/api/v1/') ? ['RATE_LIMITED', 'QUOTA_EXCEEDED'] : ['RATE_LIMITED']);
  responses['503'] = problem(['SERVICE_UNAVAILABLE']);
  return responses;
}

/** The OpenAPI 3.1 document of every route the app serves, generated from the controllers. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Vigil API')
    .setDescription(
      'Sanctions and PEP screening. The public API v1 takes `x-api-key`; dashboard calls take the key and the session token of a user of the same client; ' +
        'administration takes the session token. Errors are application/problem+json (RFC 9457). The screening POSTs ' +
        'accept Idempotency-Key (≤ 255 characters, kept ≥ 24 h). A request body field the operation does not name is ' +
        '400 VALIDATION_FAILED with its JSON pointer; a method a path does not take is 405 with Allow. What changed, ' +
        'and the version policy: docs/api-changelog.md in the repository.',
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
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const tag of operation.tags ?? []) tags.add(tag);
      // Routes that forward the bearer token to auth carry no @Credentials: the session scheme is theirs.
      const forwardsSession = (operation as unknown as Record<string, unknown>)[FORWARDS_SESSION] === true;
      delete (operation as unknown as Record<string, unknown>)[FORWARDS_SESSION];
      operation.security ??= forwardsSession ? [{ session: [] }] : [];
      const extensions = operation as unknown as Record<string, unknown>;
      const idempotent = extensions[IDEMPOTENT_EXTENSION] === true;
      delete extensions[IDEMPOTENT_EXTENSION];
      operation.description ??= describeOperation(operation, extensions, idempotent);
      if (idempotent) {
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
        // A status the route documents itself (the health check's 503 is its report) stays its own.
        ...problemResponses(path, method, operation, idempotent),
        ...operation.responses,
        default: {
          description: 'A problem (RFC 9457).',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      };
    }
  }
  document.components.responses = {
    ...document.components.responses,
    ...Object.fromEntries([...sharedProblems].sort(([a], [b]) => a.localeCompare(b))),
  };
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
