import {
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  RandomIdGenerator,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';

/** What carries W3C trace context on NATS: the nats.js MsgHdrs (get/set by name). */
export type HeaderCarrier = { get(key: string): string; set(key: string, value: string): void };

const natsGetter: TextMapGetter<HeaderCarrier> = {
  keys: (carrier) => (carrier as unknown as { keys?: () => string[] }).keys?.() ?? ['traceparent', 'tracestate'],
  get: (carrier, key) => carrier.get(key) || undefined,
};
const natsSetter: TextMapSetter<HeaderCarrier> = { set: (carrier, key, value) => carrier.set(key, value) };

const recordGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()],
};

let started = false;
/** Whether spans are made: only when something exports them (startTracing's `exporter`). */
let recording = false;

export type TracingOptions = {
  /**
   * Where finished spans go (an OTLP exporter, an in-memory one in a test). Without one no span is
   * created at all: the work runs in the caller's trace context, so propagation and the trace ids in
   * log lines stay, at none of a span's cost.
   */
  exporter?: SpanExporter;
  /** Instead of the batching processor (a test's SimpleSpanProcessor). */
  processor?: SpanProcessor;
};

/**
 * Registers the OpenTelemetry tracer provider for this process: AsyncLocalStorage context and the
 * W3C `traceparent`/`tracestate` propagator, so the work here joins the caller's trace and every
 * log line can name the trace it belongs to. Spans are recorded (every root, and each child as its
 * parent was sampled) only with an exporter. Idempotent (tests build several apps in one process).
 */
export function startTracing(service: string, options: TracingOptions = {}): void {
  if (started) return;
  started = true;
  const processor = options.processor ?? (options.exporter ? new BatchSpanProcessor(options.exporter) : undefined);
  recording = processor !== undefined;
  const provider = processor
    ? new NodeTracerProvider({
        sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
        spanProcessors: [processor],
      })
    : new NodeTracerProvider({ sampler: new AlwaysOffSampler() });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  tracerName = `vigil-${service}`;
}

let tracerName = 'vigil';
const tracer = () => trace.getTracer(tracerName);

/** The trace and span ids of the active span, for log lines. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
}

/** Writes the active context's `traceparent` (and `tracestate`) into outgoing NATS headers. */
export function injectTraceHeaders(headers: HeaderCarrier, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, natsSetter);
}

/** The active context's `traceparent`, to store beside work that is published later (outbox rows). */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ?? null;
}

/** The context a stored or received `traceparent` names (the root context when absent or malformed). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  if (!traceparent) return context.active();
  return propagation.extract(context.active(), { traceparent }, recordGetter);
}

export function contextFromHeaders(headers: HeaderCarrier | undefined): Context {
  if (!headers) return context.active();
  return propagation.extract(context.active(), headers, natsGetter);
}

export function contextFromHttpHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers, recordGetter);
}

export type SpanOptions = {
  kind: 'server' | 'client' | 'consumer' | 'producer';
  parent?: Context;
  attributes?: Record<string, string | number>;
};

const KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
} as const;

const ids = new RandomIdGenerator();
/** What startSpan hands back when nothing records spans: ending or annotating it does nothing. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Starts a span (as a child of `parent`, default the active context); the caller ends it. With no
 * exporter nothing is created: the context stays the parent's, except that a request arriving
 * without a trace (a server span with no valid parent) gets fresh ids, so its log lines in every
 * service it reaches still share one trace id.
 */
export function startSpan(name: string, options: SpanOptions): { span: Span; ctx: Context } {
  const parent = options.parent ?? context.active();
  if (!recording) {
    if (options.kind !== 'server' || trace.getSpanContext(parent) !== undefined) return { span: NO_SPAN, ctx: parent };
    const root = trace.wrapSpanContext({
      traceId: ids.generateTraceId(),
      spanId: ids.generateSpanId(),
      traceFlags: TraceFlags.NONE,
    });
    return { span: root, ctx: trace.setSpan(parent, root) };
  }
  const span = tracer().startSpan(name, { kind: KINDS[options.kind], attributes: options.attributes }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Ends a span, marking it failed when `error` is given. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** Runs `fn` inside `ctx` (its logs and outgoing requests carry the trace). */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** Runs `fn` in a span of its own, ended when `fn` settles. */
export async function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  const { span, ctx } = startSpan(name, options);
  try {
    const result = await context.with(ctx, fn);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
