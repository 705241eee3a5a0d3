import { trace } from '@opentelemetry/api';
import { contextFromHttpHeaders, currentTraceIds, startSpan, startTracing, withContext } from './tracing.js';

// No exporter (every deployment today): no span is made, yet a request's trace id reaches its logs and
// the services it calls — its own when it arrived without one.
describe('tracing without an exporter', () => {
  beforeAll(() => startTracing('test'));

  it('starts a trace for a request that arrives without one, and makes no span beneath it', () => {
    const { span, ctx } = startSpan('POST /api/v1/screen', { kind: 'server', parent: contextFromHttpHeaders({}) });
    expect(span.isRecording()).toBe(false);
    const ids = withContext(ctx, currentTraceIds);
    expect(ids?.traceId).toMatch(/^[0-9a-f]{32}$/);
    const child = startSpan('screening.v1.screen', { kind: 'client', parent: ctx });
    expect(child.ctx).toBe(ctx);
    expect(withContext(child.ctx, currentTraceIds)).toEqual(ids);
  });

  it("continues the caller's trace as it came", () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = contextFromHttpHeaders({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const { ctx } = startSpan('screening.v1.screen', { kind: 'server', parent });
    expect(ctx).toBe(parent);
    expect(trace.getSpanContext(ctx)?.traceId).toBe(traceId);
  });

  it('starts a different trace for each request without one', () => {
    const a = startSpan('a', { kind: 'server', parent: contextFromHttpHeaders({}) });
    const b = startSpan('b', { kind: 'server', parent: contextFromHttpHeaders({}) });
    expect(trace.getSpanContext(a.ctx)?.traceId).not.toBe(trace.getSpanContext(b.ctx)?.traceId);
  });
});
