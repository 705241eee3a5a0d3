import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { contextFromHttpHeaders, endSpan, startSpan, startTracing } from './tracing.js';

// With an exporter the spans are real: a server span per request and its children, exported when ended.
describe('tracing with an exporter', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => startTracing('test', { processor: new SimpleSpanProcessor(exporter) }));

  it('records a server span and its client child in one trace', () => {
    const server = startSpan('POST /api/v1/screen', { kind: 'server', parent: contextFromHttpHeaders({}) });
    const client = startSpan('screening.v1.screen', { kind: 'client', parent: server.ctx });
    endSpan(client.span);
    endSpan(server.span);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['screening.v1.screen', 'POST /api/v1/screen']);
    expect(spans[0]!.spanContext().traceId).toBe(spans[1]!.spanContext().traceId);
    expect(spans[0]!.parentSpanContext?.spanId).toBe(spans[1]!.spanContext().spanId);
  });
});
