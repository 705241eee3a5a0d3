import { Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import {
  METRICS_WINDOW_SECONDS_DEFAULT,
  SERVICE_NAMES,
  contracts,
  type AdminOverviewResponse,
  type AdminServiceFigures,
  type ServiceName,
} from '@vigil/proto';

/**
 * A figure's owner that does not answer within this makes the overview show it as
 * unavailable rather than hold the whole page for the default RPC timeout.
 */
const FIGURE_TIMEOUT_MS = 2_000;

/**
 * The admin overview, asked of the services that own each figure: the counts of auth, audit
 * and screening, and every service's own reading of its request metrics over the last hour.
 * A service that does not answer is down and its count is null; the page still renders.
 */
@Injectable()
export class AdminOverview {
  constructor(private readonly rpc: RpcClient) {}

  async overview(): Promise<AdminOverviewResponse> {
    const options = { timeoutMs: FIGURE_TIMEOUT_MS };
    const [activeUsers, alerts, searches, ...services] = await Promise.all([
      this.rpc.request(contracts.auth.activeUsers, {}, options).then(
        (r) => r.activeUsers,
        () => null,
      ),
      this.rpc.request(contracts.audit.securityAlertCount, { sinceHours: 24 }, options).then(
        (r) => r.securityAlerts,
        () => null,
      ),
      this.rpc.request(contracts.screening.totalSearches, {}, options).then(
        (r) => r.totalSearches,
        () => null,
      ),
      ...SERVICE_NAMES.map((service) => this.serviceFigures(service)),
    ]);
    const up = services.filter((s) => s.up).length;
    return {
      activeUsers,
      securityAlerts24h: alerts,
      systemHealthPercent: Math.round((up / services.length) * 1000) / 10,
      totalSearches: searches,
      services,
      generatedAt: new Date().toISOString(),
    };
  }

  private async serviceFigures(service: ServiceName): Promise<AdminServiceFigures> {
    try {
      const m = await this.rpc.request(
        contracts.metricsSummary(service),
        { windowSeconds: METRICS_WINDOW_SECONDS_DEFAULT },
        { timeoutMs: FIGURE_TIMEOUT_MS },
      );
      return {
        service,
        up: true,
        windowSeconds: m.windowSeconds,
        requests: m.requests,
        requestsPerSecond: m.requestsPerSecond,
        p95LatencyMs: m.p95LatencyMs,
        errorRate: m.errorRate,
      };
    } catch {
      return { service, up: false, windowSeconds: 0, requests: 0, requestsPerSecond: 0, p95LatencyMs: null, errorRate: 0 };
    }
  }
}
