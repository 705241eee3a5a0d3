import { ERROR_HTTP_STATUS, isErrorCode, type MetricsSummaryReply, type ServiceName } from '@vigil/proto';
import pg from 'pg';
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/**
 * Every metric of the process, served as Prometheus text on the probe port (`/metrics`).
 * One registry per process: a service registers its own figures (index size, queue depths…)
 * with `defineGauge`/`defineCounter` beside the request metrics defined here.
 */
export const metricsRegistry = new Registry();

/** Latency buckets (seconds): screens answer in milliseconds, list refreshes in minutes. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const registers = [metricsRegistry];

export function defineCounter<T extends string>(config: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
  return new Counter({ ...config, registers });
}
export function defineGauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
  return new Gauge({ ...config, registers });
}
export function defineHistogram<T extends string>(config: Omit<HistogramConfiguration<T>, 'registers'>): Histogram<T> {
  return new Histogram({ buckets: LATENCY_BUCKETS, ...config, registers });
}

const httpRequests = defineCounter({
  name: 'vigil_http_requests_total',
  help: 'HTTP requests answered, by route template and status',
  labelNames: ['method', 'route', 'status'],
});
const httpDuration = defineHistogram({
  name: 'vigil_http_request_duration_seconds',
  help: 'HTTP request latency, by route template and status',
  labelNames: ['method', 'route', 'status'],
});
const natsHandled = defineCounter({
  name: 'vigil_nats_handled_total',
  help: 'NATS requests handled, by subject and outcome',
  labelNames: ['subject', 'outcome'],
});
const natsHandleDuration = defineHistogram({
  name: 'vigil_nats_handle_duration_seconds',
  help: 'NATS handler latency, by subject and outcome',
  labelNames: ['subject', 'outcome'],
});
const natsRequestDuration = defineHistogram({
  name: 'vigil_nats_request_duration_seconds',
  help: 'Outgoing NATS requests (this service as the caller), by subject and outcome',
  labelNames: ['subject', 'outcome'],
});
const dbQueryDuration = defineHistogram({
  name: 'vigil_db_query_duration_seconds',
  help: 'Postgres queries, by statement kind and outcome',
  labelNames: ['operation', 'outcome'],
});

export type Outcome = 'ok' | 'error';

/**
 * The last hour of one service's requests, kept beside the Prometheus histogram from the same
 * observations: cumulative totals snapshotted each minute, so the figures over a window are the
 * difference between now and the snapshot at the window's start (what `rate()` and
 * `histogram_quantile()` would say over the same range).
 */
export class RequestWindow {
  private readonly count: number[];
  private total = 0;
  private errors = 0;
  private readonly snapshots: Array<{ at: number; total: number; errors: number; count: number[] }> = [];

  constructor(
    private readonly bounds: readonly number[] = LATENCY_BUCKETS,
    private readonly keep = 24 * 60 + 1,
    now = Date.now(),
  ) {
    this.count = new Array<number>(bounds.length + 1).fill(0);
    this.snapshot(now);
  }

  observe(seconds: number, error: boolean): void {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    this.count[i]!++;
    this.total++;
    if (error) this.errors++;
  }

  snapshot(now = Date.now()): void {
    this.snapshots.push({ at: now, total: this.total, errors: this.errors, count: [...this.count] });
    if (this.snapshots.length > this.keep) this.snapshots.shift();
  }

  summary(windowSeconds: number, now = Date.now()): Omit<MetricsSummaryReply, 'service'> {
    const since = now - windowSeconds * 1000;
    const base = this.snapshots.find((s) => s.at >= since) ?? this.snapshots[this.snapshots.length - 1]!;
    const covered = Math.max((now - base.at) / 1000, 0.001);
    const requests = this.total - base.total;
    const errors = this.errors - base.errors;
    const delta = this.count.map((c, i) => c - base.count[i]!);
    return {
      windowSeconds: Math.round(covered * 1000) / 1000,
      requests,
      errors,
      requestsPerSecond: round(requests / covered, 4),
      p95LatencyMs: requests === 0 ? null : round(quantile(delta, this.bounds, 0.95) * 1000, 3),
      errorRate: requests === 0 ? 0 : round(errors / requests, 6),
    };
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** As Prometheus' histogram_quantile: linear within the bucket that holds the rank. */
export function quantile(counts: readonly number[], bounds: readonly number[], q: number): number {
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return 0;
  const rank = q * n;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (seen + c >= rank && c > 0) {
      if (i >= bounds.length) return bounds[bounds.length - 1]!;
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      return lower + (bounds[i]! - lower) * ((rank - seen) / c);
    }
    seen += c;
  }
  return bounds[bounds.length - 1]!;
}

const requestWindow = new RequestWindow();
let service: ServiceName | undefined;

/**
 * Names the process in every metric (`service` label), collects Node's default metrics, starts
 * the minute snapshots of the request window and times Postgres queries. Idempotent.
 */
export function startMetrics(name: ServiceName): void {
  if (service) return;
  service = name;
  metricsRegistry.setDefaultLabels({ service: name });
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'vigil_' });
  setInterval(() => requestWindow.snapshot(), 60_000).unref();
  instrumentPostgres();
}

/** Subjects the platform itself answers (probes, this summary): kept out of the overview's figures. */
const isHousekeeping = (subject: string) => subject.startsWith('health.') || subject.startsWith('metrics.');

export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
  requestWindow.observe(seconds, status >= 500);
}

/** A handler's failure counts as an error when it is the service's fault (a 5xx code), not the caller's. */
export function isServerFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && isErrorCode(code) && ERROR_HTTP_STATUS[code] < 500);
}

export function observeNatsHandled(subject: string, seconds: number, error: unknown): void {
  const outcome: Outcome = error === undefined ? 'ok' : 'error';
  natsHandled.inc({ subject, outcome });
  natsHandleDuration.observe({ subject, outcome }, seconds);
  if (!isHousekeeping(subject)) requestWindow.observe(seconds, error !== undefined && isServerFault(error));
}

export function observeNatsRequest(subject: string, seconds: number, outcome: Outcome): void {
  natsRequestDuration.observe({ subject, outcome }, seconds);
}

/** This process's request figures over the last `windowSeconds`. */
export function requestSummary(windowSeconds: number): Omit<MetricsSummaryReply, 'service'> {
  return requestWindow.summary(windowSeconds);
}

/** Prometheus text exposition of every metric of the process. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

const OPERATIONS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'WITH',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SET',
  'COPY',
]);

function operationOf(text: unknown): string {
  if (typeof text !== 'string') return 'OTHER';
  const word = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase();
  return word && OPERATIONS.has(word) ? word : 'OTHER';
}

let postgresInstrumented = false;

/**
 * Times every query of every `pg` client of the process (TypeORM's pool and the services' own
 * pools alike) by wrapping `Client.prototype.query` once: promise and callback forms are timed,
 * streaming submittables (cursors) are passed through untimed.
 */
function instrumentPostgres(): void {
  if (postgresInstrumented) return;
  postgresInstrumented = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function query(this: unknown, ...args: unknown[]): unknown {
    const config = args[0] as { text?: unknown; submit?: unknown } | string | undefined;
    if (config && typeof config === 'object' && typeof config.submit === 'function') return original.apply(this, args);
    const operation = operationOf(typeof config === 'string' ? config : config?.text);
    const started = performance.now();
    const done = (outcome: Outcome) =>
      dbQueryDuration.observe({ operation, outcome }, (performance.now() - started) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, ...rest: unknown[]) => {
        done(error ? 'error' : 'ok');
        return (callback as (...a: unknown[]) => unknown)(error, ...rest);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => done('ok'),
        () => done('error'),
      );
    }
    return result;
  };
}

export type GaugeReading = { labels: Record<string, string>; value: number };

const gaugeReaders = new Map<string, () => Promise<GaugeReading[]> | GaugeReading[]>();

/**
 * A gauge read at scrape time (queue depths, index size): `read` answers the current values.
 * Registered once per name; a later call (another app instance in the same process, as in tests)
 * replaces the reader. A reader that fails leaves the gauge empty for that scrape.
 */
export function gaugeFrom(
  name: string,
  help: string,
  labelNames: readonly string[],
  read: () => Promise<GaugeReading[]> | GaugeReading[],
): void {
  const known = gaugeReaders.has(name);
  gaugeReaders.set(name, read);
  if (known) return;
  defineGauge({
    name,
    help,
    labelNames: [...labelNames],
    async collect() {
      this.reset();
      try {
        for (const { labels, value } of await gaugeReaders.get(name)!()) this.set(labels, value);
      } catch {
        // a scrape must not fail because one figure's source is down
      }
    },
  });
}
