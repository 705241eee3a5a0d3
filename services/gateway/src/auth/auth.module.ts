import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { NATS_CLIENT, RpcClient, natsClientOptions } from '@vigil/platform';
import type { GatewayConfig } from '../env.js';
import { SettingsController } from '../settings/settings.controller.js';
import { AuthController } from './auth.controller.js';

/**
 * The HTTP face of the auth service: /auth/v1 and /api/settings (client administration lives
 * in the API module, beside the streams it records admin actions to). Nest modules cannot see their parent's providers, so this one
 * brings its own RpcClient rather than asking the app module to export it.
 */
@Module({})
export class AuthHttpModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: AuthHttpModule,
      imports: [ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'gateway-auth') }])],
      controllers: [AuthController, SettingsController],
      providers: [{ provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS }, RpcClient],
    };
  }
}
