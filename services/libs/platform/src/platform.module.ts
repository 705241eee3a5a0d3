import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { BaseConfig } from './config.js';
import { EventPublisher } from './events.js';
import { Nats, RPC_TIMEOUT_MS, RpcClient, connectNats } from './nats.js';
import { RESPONDER_QUEUE, Responder } from './responder.js';
import type { StreamSpec } from './streams.js';
import { SERVICE_NAMES, type ServiceName } from '@vigil/proto';

function identityOf(service: string): ServiceName {
  if ((SERVICE_NAMES as readonly string[]).includes(service)) return service as ServiceName;
  throw new Error(`PlatformModule.forRoot: "${service}" is not a service; say which one it belongs to (identity)`);
}

export type PlatformOptions = {
  /** Names the process's NATS connection (`vigil-<service>`), e.g. `gateway` or `gateway-bulk-worker`. */
  service: string;
  config: Pick<BaseConfig, 'NATS_URL' | 'NATS_REQUEST_TIMEOUT_MS'> &
    Partial<Pick<BaseConfig, 'NATS_NKEY_SEED' | 'NATS_TLS_CA_FILE'>>;
  /**
   * Whose permissions and inbox the process takes on the bus (its NATS_NKEY_SEED must be that
   * service's): `service` when that is a service's name; a second process of a service (the
   * gateway's bulk worker, auth's seed) names the service it belongs to.
   */
  identity?: ServiceName;
  /** The JetStream streams this service publishes to, created (or given missing subjects) at boot. */
  streams?: readonly StreamSpec[];
};

/**
 * What every service process shares, provided once for every module: the one NATS connection
 * (Nats), request/reply and core events over it (RpcClient), durable events (EventPublisher), and
 * Responder for the subjects answered straight from a subscription.
 * Global, so feature modules inject these without importing it, and so its shutdown hook (the
 * drain) runs after theirs. The connection is opened while the module is created: a service
 * that cannot reach NATS at boot stops there, as it did when Nest's server connected.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        {
          provide: Nats,
          useFactory: async () =>
            new Nats(
              await connectNats(options.config.NATS_URL, options.service, {
                seed: options.config.NATS_NKEY_SEED,
                service: options.identity ?? identityOf(options.service),
                caFile: options.config.NATS_TLS_CA_FILE,
              }),
              options.streams,
            ),
        },
        { provide: RPC_TIMEOUT_MS, useValue: options.config.NATS_REQUEST_TIMEOUT_MS },
        // Responders join the queue group Nest's server uses (bootstrapService names it after the service).
        { provide: RESPONDER_QUEUE, useValue: options.service },
        RpcClient,
        EventPublisher,
        Responder,
      ],
      exports: [Nats, RPC_TIMEOUT_MS, RpcClient, EventPublisher, Responder],
    };
  }
}
