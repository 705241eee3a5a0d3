import type { z } from 'zod';

/**
 * A NATS request/reply subject with the schema of what is sent and of what comes back.
 * The platform executes it on both ends: `RpcClient.request(contract, payload)` takes the
 * request's type and checks the reply on receipt; `@Handles(contract)` parses the request
 * before the handler runs and checks the reply before it leaves. A contract is the only
 * place a subject's shape is written.
 */
export type Contract<
  Subject extends string = string,
  Request extends z.ZodType = z.ZodType,
  Reply extends z.ZodType = z.ZodType,
> = {
  readonly kind: 'rpc';
  readonly subject: Subject;
  readonly request: Request;
  readonly reply: Reply;
};

/** An event subject with the schema of its payload (published on core NATS or JetStream). */
export type EventContract<Subject extends string = string, Payload extends z.ZodType = z.ZodType> = {
  readonly kind: 'event';
  readonly subject: Subject;
  readonly schema: Payload;
};

export function contract<const Subject extends string, Request extends z.ZodType, Reply extends z.ZodType>(
  subject: Subject,
  request: Request,
  reply: Reply,
): Contract<Subject, Request, Reply> {
  return Object.freeze({ kind: 'rpc', subject, request, reply });
}

export function event<const Subject extends string, Payload extends z.ZodType>(
  subject: Subject,
  schema: Payload,
): EventContract<Subject, Payload> {
  return Object.freeze({ kind: 'event', subject, schema });
}

/** What a caller sends (before the handler's defaults and transforms). */
export type RequestOf<C extends Contract> = z.input<C['request']>;
/** What a handler receives, once parsed. */
export type ParsedRequestOf<C extends Contract> = z.output<C['request']>;
/** What a caller gets back. */
export type ReplyOf<C extends Contract> = z.output<C['reply']>;
/** What a handler may return (the reply schema's input). */
export type ReplyInputOf<C extends Contract> = z.input<C['reply']>;
export type PayloadOf<E extends EventContract> = z.output<E['schema']>;
