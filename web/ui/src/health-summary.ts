import type { HealthResponse, ServiceHealth } from '@vigil/proto';

export type HealthTone = 'loading' | 'ok' | 'degraded' | 'unavailable';

export type HealthSummary = {
  tone: HealthTone;
  headline: string;
  detail: string;
};

export type ServiceRow = { name: string } & ServiceHealth;

export type HealthView = {
  health: HealthResponse | undefined;
  isLoading: boolean;
  /** Set when the gateway could not be asked at all (network failure, unexpected reply). */
  error?: string | undefined;
};

/**
 * Turns a gateway health report into what a person reads first. The services'
 * own flags decide, not only the overall status, so a report that says "ok"
 * while listing a service as down is still shown as degraded.
 */
export function summarizeHealth({ health, isLoading, error }: HealthView): HealthSummary {
  if (error !== undefined) {
    return { tone: 'unavailable', headline: 'Status unavailable', detail: error };
  }
  if (health === undefined) {
    return isLoading
      ? {
          tone: 'loading',
          headline: 'Checking services…',
          detail: 'Asking the gateway for the health of every service.',
        }
      : { tone: 'unavailable', headline: 'Status unavailable', detail: 'No health report has been received yet.' };
  }
  const rows = serviceRows(health);
  if (rows.length === 0) {
    return {
      tone: 'unavailable',
      headline: 'No services reported',
      detail: 'The gateway answered without listing any service.',
    };
  }
  const down = rows.filter((row) => row.status !== 'up').map((row) => row.name);
  if (down.length === 0 && health.status === 'ok') {
    return { tone: 'ok', headline: 'All systems operational', detail: `${rows.length} of ${rows.length} services up` };
  }
  if (down.length === 0) {
    return { tone: 'degraded', headline: 'Degraded performance', detail: 'The gateway reports a degraded platform.' };
  }
  return {
    tone: 'degraded',
    headline: down.length === rows.length ? 'Major outage' : 'Partial outage',
    detail: `${down.join(', ')} ${down.length === 1 ? 'is' : 'are'} down`,
  };
}

/** Services in the order the gateway listed them. */
export function serviceRows(health: HealthResponse): ServiceRow[] {
  return Object.entries(health.services).map(([name, service]) => ({ name, ...service }));
}

export function formatLatency(latencyMs: number): string {
  if (!Number.isFinite(latencyMs) || latencyMs < 0) return '—';
  if (latencyMs < 1) return '<1 ms';
  if (latencyMs < 1000) return `${Math.round(latencyMs)} ms`;
  return `${(latencyMs / 1000).toFixed(1)} s`;
}

/**
 * Checks a reply really is a health report before the widget trusts it, so a
 * proxy's HTML error page or an unrelated JSON body reads as "unavailable"
 * rather than crashing the page.
 */
export function isHealthResponse(value: unknown): value is HealthResponse {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (candidate.status !== 'ok' && candidate.status !== 'degraded') return false;
  if (typeof candidate.version !== 'string') return false;
  const services = candidate.services;
  if (typeof services !== 'object' || services === null || Array.isArray(services)) return false;
  return Object.values(services).every((service: unknown) => {
    if (typeof service !== 'object' || service === null) return false;
    const { status, latencyMs } = service as Record<string, unknown>;
    return (status === 'up' || status === 'down') && typeof latencyMs === 'number';
  });
}
