import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import { DomainError, parseMessage } from '@vigil/platform';
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

const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>();

/** Adds OpenAPI metadata to the method the decorated parameter belongs to. */
function describe(target: object, key: string | symbol | undefined, decorator: MethodDecorator) {
  if (key === undefined) return;
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor) decorator(target, key, descriptor);
}

/**
 * What the gateway adds to a body from the verified request: the caller's IP and user agent
 * (`caller`) and the bearer token (`accessToken`) the auth service judges. Not body fields.
 */
export type BodyExtra = 'caller' | 'accessToken';
const EXTRA_FIELDS: Record<BodyExtra, string[]> = { caller: ['ip', 'userAgent'], accessToken: ['accessToken'] };

function bodyWith(req: Request, extras: readonly BodyExtra[]): unknown {
  if (
    extras.length === 0 &&
    (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
  )
    return req.body ?? {};
  return {
    ...bodyOf(req),
    ...(extras.includes('caller') ? callerContext(req) : {}),
    ...(extras.includes('accessToken') ? { accessToken: bearerToken(req) } : {}),
  };
}

const parseBody = createParamDecorator(
  (options: { schema: z.ZodType; what: string; extras: readonly BodyExtra[] }, ctx: ExecutionContext) =>
    parseMessage(options.schema, bodyWith(requestOf(ctx), options.extras), options.what),
);

/** Drops the fields the gateway fills from the document of what a client sends. */
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
 * The JSON body, parsed with `schema` (the NATS request schema itself when the gateway only
 * adds `extras` to it). `what` names it in the VALIDATION_FAILED detail.
 */
export function ZodBody(
  schema: z.ZodType,
  what = 'request body',
  extras: readonly BodyExtra[] = [],
): ParameterDecorator {
  return (target, key, index) => {
    parseBody({ schema, what, extras })(target, key, index);
    const documented = withoutFields(
      jsonSchemaOf(schema),
      extras.flatMap((extra) => EXTRA_FIELDS[extra]),
    );
    describe(target, key, ApiBody({ required: true, schema: documented as never }));
  };
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

const parseQuery = createParamDecorator(
  (options: { schema: z.ZodType; what: string; properties: Record<string, JsonSchema> }, ctx: ExecutionContext) =>
    parseMessage(
      options.schema,
      typedQuery(requestOf(ctx).query as Record<string, unknown>, options.properties),
      options.what,
    ),
);

/** The query string, typed from `schema`'s properties and parsed with it; one OpenAPI parameter per property. */
export function ZodQuery(schema: z.ZodType, what = 'query'): ParameterDecorator {
  const json = jsonSchemaOf(schema);
  const properties = json.properties ?? {};
  const required = new Set(json.required ?? []);
  return (target, key, index) => {
    parseQuery({ schema, what, properties })(target, key, index);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...propertySchema } = property;
      describe(
        target,
        key,
        ApiQuery({
          name,
          required: required.has(name),
          schema: propertySchema as never,
          ...(description ? { description } : {}),
        }),
      );
    }
  };
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

/** The client the verified API key names (routes with `@Credentials('api-key' | 'dashboard')`). */
export const CurrentClient = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const client = callerOf(requestOf(ctx)).client;
  if (!client) throw new DomainError('INVALID_API_KEY', 'This request needs an x-api-key header.');
  return client;
});

/** The signed-in user the verified session token names (`@Credentials('session' | 'admin' | 'dashboard')`). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const user = callerOf(requestOf(ctx)).user;
  if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
  return user;
});

/** The bearer token, for routes whose session the auth service judges (it verifies signature, expiry, live session, role). */
export const AccessToken = createParamDecorator((_: unknown, ctx: ExecutionContext) => bearerToken(requestOf(ctx)));

/** What the auth service records about the caller: IP and user agent. */
export const CallerInfo = createParamDecorator((_: unknown, ctx: ExecutionContext) => callerContext(requestOf(ctx)));
