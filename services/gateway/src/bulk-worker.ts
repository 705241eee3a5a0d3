import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, loadConfigOrExit } from '@vigil/platform';
import { BulkWorkerModule } from './bulk-jobs/bulk-worker.module.js';
import { envSchema } from './env.js';

// A bulk-job worker on its own: scale these independently of the HTTP gateway.
const config = loadConfigOrExit('gateway', envSchema);
const app = await NestFactory.createApplicationContext(BulkWorkerModule.forRoot(config), {
  logger: new PinoNestLogger(createLogger('gateway-bulk-worker', config.LOG_LEVEL)),
});
app.enableShutdownHooks();
