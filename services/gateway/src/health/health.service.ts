import { Inject, Injectable } from '@nestjs/common';
import { RpcClient, VIGIL_VERSION } from '@vigil/platform';
import { SERVICE_NAMES, contracts, type HealthResponse, type ServiceHealth, type ServiceName } from '@vigil/proto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

@Injectable()
export class HealthService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Asks every service at once; one slow or dead service costs at most HEALTH_TIMEOUT_MS. */
  async check(): Promise<HealthResponse> {
    const entries = await Promise.all(
      SERVICE_NAMES.map(async (name): Promise<[ServiceName, ServiceHealth]> => [name, await this.probe(name)]),
    );
    const services = Object.fromEntries(entries) as Record<ServiceName, ServiceHealth>;
    const allUp = entries.every(([, h]) => h.status === 'up');
    return { status: allUp ? 'ok' : 'degraded', services, version: VIGIL_VERSION };
  }

  private async probe(name: ServiceName): Promise<ServiceHealth> {
    const started = performance.now();
    const latency = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      // The gateway asks itself over NATS too: an answer proves its own broker link works.
      const reply = await this.rpc.request(contracts.health(name), {}, { timeoutMs: this.config.HEALTH_TIMEOUT_MS });
      const failing = Object.entries(reply.checks)
        .filter(([, c]) => c.status !== 'up')
        .map(([check, c]) => `${check}: ${c.detail ?? 'down'}`);
      return reply.status === 'up'
        ? { status: 'up', latencyMs: latency() }
        : { status: 'down', latencyMs: latency(), detail: failing.join('; ') || 'reported down' };
    } catch {
      return { status: 'down', latencyMs: latency(), detail: 'no answer' };
    }
  }
}
