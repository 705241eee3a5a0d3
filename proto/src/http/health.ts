import type { ServiceName } from '../services.js';

export type ServiceHealth = {
  status: 'up' | 'down';
  latencyMs: number;
  detail?: string;
};

/** `GET /health` on the gateway: 200 when every service is up, 503 otherwise. */
export type HealthResponse = {
  status: 'ok' | 'degraded';
  services: Record<ServiceName, ServiceHealth>;
  version: string;
};
