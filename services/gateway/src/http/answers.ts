import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Contract } from '@vigil/proto';
import { z } from 'zod';

/**
 * What a route answers when it succeeds, in /openapi.json, from the zod schema the answer is
 * checked against (a contract's reply schema, or the gateway's own response schema where the
 * controller reshapes the reply): the document, the SDK's types and the checks cannot drift.
 * A route that answers something other than JSON names its media type instead.
 */
export type MediaAnswer = { readonly mediaType: string; readonly schema?: z.ZodType };
export type Answer = z.ZodType | Contract | MediaAnswer;

export type AnswerOptions = {
  /** 200 unless said; what @HttpCode sets, or what the route writes itself. */
  status?: number;
  /** What the answer is (defaults to the summary). */
  description?: string;
  /** One line for the operation (the docs page's title of the route). */
  summary?: string;
  /** Other media types the same status may carry (a `format=csv` download of the same data). */
  also?: readonly MediaAnswer[];
  /** A real-looking JSON answer (openapi/answer-examples.ts), checked against the schema by a test. */
  example?: unknown;
};

const STATUS_TEXT: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/**
 * The JSON Schema of what a client receives (zod 4's `z.toJSONSchema`, output side). A reply is
 * checked with `safeParse` and sent as the handler wrote it, so a plain `z.object` lets fields it
 * does not name through: the document says so (no `additionalProperties: false`, which zod writes
 * for the output side); only a strict object forbids them, on the wire as in the document.
 */
export function replySchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def;
      if (def.type === 'object' && def.catchall?._zod.def.type !== 'never') delete jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;
  return json;
}

type Media = { schema?: Record<string, unknown>; example?: unknown };

function contentOf(answer: Answer, example?: unknown): Record<string, Media> {
  const json = (schema: z.ZodType): Media =>
    example === undefined ? { schema: replySchemaOf(schema) } : { schema: replySchemaOf(schema), example };
  if (answer instanceof z.ZodType) return { 'application/json': json(answer) };
  if ('kind' in answer) return { 'application/json': json(answer.reply) };
  return { [answer.mediaType]: answer.schema ? { schema: replySchemaOf(answer.schema) } : {} };
}

const descriptionOf = (options: AnswerOptions, status: number) =>
  options.description ?? options.summary ?? STATUS_TEXT[status] ?? String(status);

/** The route's success response (and summary), written once beside its other decorators. */
export function Answers(answer: Answer, options: AnswerOptions): MethodDecorator {
  const { status = 200, summary, also = [], example } = options;
  const content = Object.assign(contentOf(answer, example), ...also.map((media) => contentOf(media)));
  return applyDecorators(
    ApiResponse({ status, description: descriptionOf(options, status), content: content as never }),
    ...(summary ? [ApiOperation({ summary })] : []),
  );
}

/** A route whose answer has no body (204), or a redirect: the status alone. */
export function AnswersEmpty(options: AnswerOptions): MethodDecorator {
  const { status = 204, summary } = options;
  return applyDecorators(
    ApiResponse({ status, description: descriptionOf(options, status) }),
    ...(summary ? [ApiOperation({ summary })] : []),
  );
}
