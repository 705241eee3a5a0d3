import 'reflect-metadata';
import { loadConfigOrExit, startProbes } from '@vigil/platform';
import { envSchema } from './env.js';
import { createGatewayApp } from './http/create-app.js';
import { migrateWithLock } from './infra/database.js';

const config = loadConfigOrExit('gateway', envSchema);
if (config.MIGRATE_ON_BOOT) await migrateWithLock(config);
const app = await createGatewayApp(config);
await app.listen(config.PORT, config.HOST);
startProbes(app, 'gateway', config);
