import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, loadConfigOrExit, waitForDatabaseOrExit } from '@vigil/platform';
import { BulkWorkerModule } from './bulk-jobs/bulk-worker.module.js';
import { envSchema } from './env.js';

// A bulk-job worker on its own: scale these independently of the HTTP gateway.
const config = loadConfigOrExit('gateway', envSchema);
const logger = createLogger('gateway-bulk-worker', config.LOG_LEVEL);
await waitForDatabaseOrExit('gateway-bulk-worker', config, logger);
const app = await NestFactory.createApplicationContext(BulkWorkerModule.forRoot(config), {
  logger: new PinoNestLogger(logger),
});
app.enableShutdownHooks();
