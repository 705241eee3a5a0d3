import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '../env.js';
import { SettingsController } from '../settings/settings.controller.js';
import { AuthController } from './auth.controller.js';

/**
 * The HTTP face of the auth service: /auth/v1 and /api/settings (client administration lives
 * in the API module, beside the admin actions it records). RpcClient comes from the global PlatformModule.
 */
@Module({})
export class AuthHttpModule {
  static forRoot(_config: Readonly<GatewayConfig>): DynamicModule {
    return { module: AuthHttpModule, controllers: [AuthController, SettingsController] };
  }
}
