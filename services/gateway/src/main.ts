import 'reflect-metadata';
import { createLogger, loadConfigOrExit, startProbes, waitForDatabaseOrExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { createGatewayApp } from './http/create-app.js';
import { migrateWithLock } from './infra/database.js';

const config = loadConfigOrExit('gateway', envSchema);
const probes = startProbes('gateway', config);
const logger = createLogger('gateway', config.LOG_LEVEL);
await waitForDatabaseOrExit('gateway', config, logger);
if (config.MIGRATE_ON_BOOT) await migrateWithLock(config);
const app = await createGatewayApp(config);
await app.listen(config.PORT, config.HOST);
probes.serve(app);
