import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiParam, ApiQuery } from '@nestjs/swagger';
import { DomainError, parseMessage } from '@vigil/platform';
import type { MemberRole, RequestActor, ResolvedKey } from '@vigil/proto';
import type { Request } from 'express';
import { z } from 'zod';
import { bearerToken, bodyOf, callerContext } from '../auth/caller.js';
import { callerOf } from '../credentials/credentials.js';

// A route's shape is written once, as a zod schema (from `proto/`): these parameter
// decorators parse the request with it (VALIDATION_FAILED with JSON pointers otherwise) and
// describe the same schema in /openapi.json, so the document cannot drift from what is parsed.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  [key: string]: unknown;
};

/**
 * The JSON Schema of what a client sends (zod 4's own `z.toJSONSchema`, input side: defaults
 * make a field optional, transforms are described by their input). zod 4 ships the converter,
 * so the document needs no second library that would have to follow zod's internals.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return json;
}

/**
 * Marks an operation that forwards the bearer token for the auth service to judge; the OpenAPI
 * document gives it the session scheme unless @Credentials already said what it takes.
 */
export const FORWARDS_SESSION = 'x-vigil-forwards-session';

const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>();

function currentClient(req: Request): ResolvedKey {
  const client = callerOf(req).client;
  if (!client) throw new DomainError('INVALID_API_KEY', 'This request needs an x-api-key header.');
  return client;
}

/** The signed-in member, as the screening service names it on a decision. */
function memberOf(req: Request): { userId: string; email: string; memberRole: MemberRole } {
  const user = callerOf(req).user;
  if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
  if (!user.memberRole) throw new DomainError('ROLE_FORBIDDEN', 'You are not a member of a client.');
  return { userId: user.id, email: user.email, memberRole: user.memberRole };
}

/** Adds OpenAPI metadata to the method the decorated parameter belongs to. */
function describe(target: object, key: string | symbol | undefined, decorator: MethodDecorator) {
  if (key === undefined) return;
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor) decorator(target, key, descriptor);
}

/**
 * Where the fields of a request come from, besides the JSON body: the caller's IP and user
 * agent (`caller`), the bearer token the auth service judges (`accessToken`), path parameters
 * and query parameters (`{ field: 'name' }`). A route whose NATS request is the route's whole
 * input names the contract's request schema once and lists its sources here.
 */
export type RequestSources = {
  /** The JSON body's fields (default true). */
  body?: boolean;
  caller?: boolean;
  accessToken?: boolean;
  /** `clientId`: the client the verified API key names (INVALID_API_KEY without one). */
  client?: boolean;
  /** `actorId`: the signed-in user who acts (null on a key-only request). */
  actor?: boolean;
  /** `actor`: the signed-in member who acts, `{userId, email, memberRole}` (a session is required). */
  member?: boolean;
  params?: Readonly<Record<string, string>>;
  /** Query parameters by field; `true`: every field of the schema not filled from elsewhere, under its own name. */
  query?: Readonly<Record<string, string>> | true;
  /** Leave the body out of /openapi.json (a multipart route documents its own). */
  documentBody?: boolean;
};

/** The query parameters a route reads, field → parameter name. */
function queryNames(sources: RequestSources, properties: Record<string, JsonSchema>): Record<string, string> {
  if (sources.query !== true) return { ...sources.query };
  const filled = new Set([
    ...(sources.caller ? ['ip', 'userAgent'] : []),
    ...(sources.accessToken ? ['accessToken'] : []),
    ...(sources.client ? ['clientId'] : []),
    ...(sources.actor ? ['actorId'] : []),
    ...(sources.member ? ['actor'] : []),
    ...Object.keys(sources.params ?? {}),
  ]);
  return Object.fromEntries(
    Object.keys(properties)
      .filter((field) => !filled.has(field))
      .map((field) => [field, field]),
  );
}

/**
 * A body that was not parsed as JSON (text/plain, XML, a form, a multipart sent to a JSON route)
 * or a JSON array would otherwise read as `{}`: the route would act on defaults its caller never
 * sent (test:security found PUT /api/monitoring/settings saving a text/plain body as defaults).
 * Only a route that documents its own multipart body takes one.
 */
function requireJsonObject(req: Request, sources: RequestSources) {
  const sent = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!sent) return;
  if (sources.documentBody === false && req.is('multipart/form-data')) return;
  // The usual header settles it without type-is parsing the media type again.
  if (req.headers['content-type'] !== 'application/json' && !req.is(['application/json', 'application/*+json']))
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
    throw new DomainError('VALIDATION_FAILED', 'The request body must be a JSON object.', [
      { pointer: '', detail: 'must be a JSON object' },
    ]);
}

/**
 * The body's fields that `schema` does not name, as JSON pointers, at any depth: zod's plain
 * objects drop them silently, so a misspelled `dob` would screen without the date of birth.
 * An object whose schema takes other keys (a record, a loose object) takes any.
 */
export function unknownFields(value: unknown, schema: JsonSchema, pointer = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const branches = [
    schema,
    ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((key) =>
      Array.isArray(schema[key]) ? (schema[key] as JsonSchema[]) : [],
    ),
  ];
  if (Array.isArray(value)) {
    const items = branches.map((branch) => branch.items).find((items) => items && typeof items === 'object');
    return items ? value.flatMap((item, index) => unknownFields(item, items as JsonSchema, `${pointer}/${index}`)) : [];
  }
  const objects = branches.filter((branch) => branch.properties !== undefined);
  if (objects.length === 0) return [];
  if (objects.some((branch) => branch.additionalProperties !== undefined && branch.additionalProperties !== false))
    return [];
  const properties = Object.assign({}, ...objects.map((branch) => branch.properties)) as Record<string, JsonSchema>;
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const property = properties[key];
    return property ? unknownFields(field, property, at) : [at];
  });
}

function rejectUnknownFields(req: Request, bodySchema: JsonSchema) {
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) return;
  const unknown = unknownFields(req.body, bodySchema);
  if (unknown.length > 0)
    throw new DomainError(
      'VALIDATION_FAILED',
      `The request body has ${unknown.length === 1 ? 'a field' : 'fields'} this route does not take.`,
      unknown.map((pointer) => ({ pointer, detail: 'is not a field of this request' })),
    );
}

function gather(
  req: Request,
  sources: RequestSources,
  properties: Record<string, JsonSchema>,
  names: Record<string, string>,
  bodySchema: JsonSchema,
): unknown {
  const body = sources.body ?? true;
  if (body) requireJsonObject(req, sources);
  if (body && !(sources.documentBody === false && req.is('multipart/form-data'))) rejectUnknownFields(req, bodySchema);
  const only = body && !sources.caller && !sources.accessToken && !sources.client && !sources.params && !sources.query;
  // A body-only route hands the body as it came, so a non-object is reported as such.
  if (only) return req.body ?? {};
  const query = typedQuery(
    Object.fromEntries(
      Object.entries(names).map(([field, name]) => [field, (req.query as Record<string, unknown>)[name]]),
    ),
    properties,
  );
  const clientId = sources.client ? { clientId: currentClient(req).clientId } : {};
  const params = Object.fromEntries(
    Object.entries(sources.params ?? {}).map(([field, name]) => [field, req.params[name]]),
  );
  return {
    ...(body ? bodyOf(req) : {}),
    ...query,
    ...clientId,
    ...(sources.actor ? { actorId: callerOf(req).user?.id ?? null } : {}),
    ...(sources.member ? { actor: memberOf(req) } : {}),
    ...(sources.accessToken ? { accessToken: bearerToken(req) } : {}),
    ...params,
    ...(sources.caller ? callerContext(req) : {}),
  };
}

const parseRequest = createParamDecorator(
  (
    options: {
      schema: z.ZodType;
      what: string;
      sources: RequestSources;
      properties: Record<string, JsonSchema>;
      /** queryNames(sources, properties), worked out once at boot rather than per request. */
      names: Record<string, string>;
      /** What the body may hold: the schema less the fields filled from elsewhere. */
      bodySchema: JsonSchema;
    },
    ctx: ExecutionContext,
  ) =>
    parseMessage(
      options.schema,
      gather(requestOf(ctx), options.sources, options.properties, options.names, options.bodySchema),
      options.what,
    ),
);

/** The properties of an object schema, or of every branch of a union of them. */
function propertiesOf(json: JsonSchema): Record<string, JsonSchema> {
  const branches = [
    json,
    ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((key) =>
      Array.isArray(json[key]) ? (json[key] as JsonSchema[]) : [],
    ),
  ];
  return Object.assign({}, ...branches.map((branch) => branch.properties ?? {})) as Record<string, JsonSchema>;
}

/** The document of what a client sends in the body: the schema less the fields filled from elsewhere. */
function withoutFields(json: JsonSchema, fields: string[]): JsonSchema {
  if (fields.length === 0) return json;
  const strip = (node: JsonSchema): JsonSchema => {
    const copy: JsonSchema = { ...node };
    if (node.properties)
      copy.properties = Object.fromEntries(Object.entries(node.properties).filter(([name]) => !fields.includes(name)));
    if (node.required) copy.required = node.required.filter((name) => !fields.includes(name));
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(node[key])) copy[key] = (node[key] as JsonSchema[]).map(strip);
    return copy;
  };
  return strip(json);
}

/**
 * The route's whole input, gathered from `sources` and parsed with `schema` (usually the
 * contract's request schema itself); `what` names it in the VALIDATION_FAILED detail. The
 * body part and the query parameters are described in /openapi.json from the same schema.
 */
export function ZodRequest(schema: z.ZodType, what = 'message', sources: RequestSources = {}): ParameterDecorator {
  const json = jsonSchemaOf(schema);
  const properties = propertiesOf(json);
  const names = queryNames(sources, properties);
  const elsewhere = [
    ...(sources.caller ? ['ip', 'userAgent'] : []),
    ...(sources.accessToken ? ['accessToken'] : []),
    ...(sources.client ? ['clientId'] : []),
    ...(sources.actor ? ['actorId'] : []),
    ...(sources.member ? ['actor'] : []),
    ...Object.keys(sources.params ?? {}),
  ];
  // The body as /openapi.json documents it.
  const bodySchema = withoutFields(json, elsewhere);
  return (target, key, index) => {
    parseRequest({ schema, what, sources, properties, names, bodySchema })(target, key, index);
    const required = new Set(json.required ?? []);
    if (sources.accessToken) describe(target, key, ApiExtension(FORWARDS_SESSION, true));
    for (const name of Object.values(sources.params ?? {}))
      describe(target, key, ApiParam({ name, required: true, schema: { type: 'string' } }));
    if ((sources.body ?? true) && sources.documentBody !== false)
      // No body reads as `{}`: the body is required only where the schema requires a field.
      describe(target, key, ApiBody({ required: (bodySchema.required ?? []).length > 0, schema: bodySchema as never }));
    for (const [field, name] of Object.entries(names)) {
      const { description, ...propertySchema } = properties[field] ?? {};
      describe(
        target,
        key,
        ApiQuery({
          name,
          required: required.has(field),
          // `?status=` reads as absent (typedQuery): forms send it for "all".
          ...(required.has(field) ? {} : { allowEmptyValue: true }),
          schema: propertySchema as never,
          ...(description ? { description } : {}),
        }),
      );
    }
  };
}

/** The JSON body, parsed with `schema`. */
export function ZodBody(schema: z.ZodType, what = 'request body'): ParameterDecorator {
  return ZodRequest(schema, what);
}

/**
 * Query strings arrive as strings: a value becomes a number or a boolean where the schema's
 * property takes one (and looks like one), anything else stays as it came so validation
 * reports it with its pointer; empty values count as absent (forms send `?status=` for "all").
 */
export function typedQuery(
  query: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    const types = [property.type, ...((property.anyOf as JsonSchema[] | undefined) ?? []).map((p) => p.type)].flat();
    if (
      (types.includes('integer') || types.includes('number')) &&
      typeof value === 'string' &&
      /^-?\d+(\.\d+)?$/.test(value)
    )
      typed[name] = Number(value);
    else if (types.includes('boolean') && (value === 'true' || value === 'false')) typed[name] = value === 'true';
    else typed[name] = value;
  }
  return typed;
}

/** The query string, typed from `schema`'s properties and parsed with it; one OpenAPI parameter per property. */
export function ZodQuery(schema: z.ZodType, what = 'query'): ParameterDecorator {
  return ZodRequest(schema, what, { body: false, query: true });
}

const parseParam = createParamDecorator(
  (options: { name: string; schema: z.ZodType; what: string }, ctx: ExecutionContext) =>
    parseMessage(options.schema, requestOf(ctx).params[options.name], options.what),
);

/** One path parameter, parsed with `schema` (a plain string by default). */
export function ZodParam(
  name: string,
  schema: z.ZodType = z.string(),
  what = `path parameter ${name}`,
): ParameterDecorator {
  return (target, key, index) => {
    parseParam({ name, schema, what })(target, key, index);
    describe(target, key, ApiParam({ name, required: true, schema: jsonSchemaOf(schema) as never }));
  };
}

/** The client the verified credentials name (routes with `@Credentials('api-key' | 'dashboard' | 'key-or-session')`). */
export const CurrentClient = createParamDecorator((_: unknown, ctx: ExecutionContext) => currentClient(requestOf(ctx)));

/** Everything the credentials guard verified: the client, the session's user, the key alone. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext) => callerOf(requestOf(ctx)));

/**
 * Who runs a screening, from what the credentials guard verified and nothing the request says:
 * the signed-in user when there is a session, else the API key that alone authenticated the
 * request, named by its id and display prefix (never the key nor its hash).
 */
export function screeningActorOf(req: Request): RequestActor {
  const { user, client } = callerOf(req);
  if (user) return { kind: 'user', userId: user.id, email: user.email };
  if (client?.keyId && client.keyPrefix) return { kind: 'api_key', keyId: client.keyId, keyPrefix: client.keyPrefix };
  throw new DomainError('UNAUTHENTICATED', 'This request names neither a signed-in user nor an API key.');
}

/** Who runs the route's screening (see screeningActorOf). */
export const ScreeningActor = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  screeningActorOf(requestOf(ctx)),
);

/** The signed-in user the verified session token names (`@Credentials('session' | 'admin' | 'dashboard')`). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const user = callerOf(requestOf(ctx)).user;
  if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
  return user;
});

const accessToken = createParamDecorator((_: unknown, ctx: ExecutionContext) => bearerToken(requestOf(ctx)));

/**
 * The bearer token, for routes whose session the auth service judges (it verifies signature,
 * expiry, live session, role); the route's OpenAPI operation takes the session scheme.
 */
export function AccessToken(): ParameterDecorator {
  return (target, key, index) => {
    accessToken()(target, key, index);
    describe(target, key, ApiExtension(FORWARDS_SESSION, true));
  };
}

/**
 * The bearer token if the request has one: for the one route (the development mailbox) whose
 * service must answer 404 to anonymous and signed-in callers alike where it does not exist.
 */
export const OptionalAccessToken = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => /^Bearer\s+(\S+)$/i.exec(requestOf(ctx).header('authorization') ?? '')?.[1],
);
