import { bootstrapService } from '@vigil/platform';
import { AppModule } from './app.module.js';
import { envSchema } from './env.js';

await bootstrapService({ service: 'audit', envSchema, module: (config) => AppModule.forRoot(config) });
