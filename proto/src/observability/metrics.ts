import { z } from 'zod';
import { SERVICE_NAMES } from '../services.js';

/** The overview's window: the figures per service cover the last hour. */
export const METRICS_WINDOW_SECONDS_DEFAULT = 3600;

/**
 * `metrics.v1.summary.<service>`: a service's own reading of its Prometheus request metrics
 * (the HTTP route histogram on the gateway, the NATS subject histogram elsewhere) over a window.
 */
export const metricsSummaryRequestSchema = z.object({
  windowSeconds: z.number().int().min(60).max(86_400).default(METRICS_WINDOW_SECONDS_DEFAULT),
});

export const metricsSummaryReplySchema = z.object({
  service: z.enum(SERVICE_NAMES),
  /** The span the figures cover: shorter than asked while the process is younger than the window. */
  windowSeconds: z.number().nonnegative(),
  requests: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  requestsPerSecond: z.number().nonnegative(),
  /** From the latency histogram's buckets; null when nothing was handled in the window. */
  p95LatencyMs: z.number().nonnegative().nullable(),
  /** errors / requests; 0 when nothing was handled. */
  errorRate: z.number().min(0).max(1),
});

export type MetricsSummaryRequest = z.input<typeof metricsSummaryRequestSchema>;
export type MetricsSummaryReply = z.infer<typeof metricsSummaryReplySchema>;
