import 'reflect-metadata';
import { loadConfigOrExit, startProbes } from '@vigil/platform';
import { envSchema } from './env.js';
import { createGatewayApp } from './http/create-app.js';

const config = loadConfigOrExit('gateway', envSchema);
const app = await createGatewayApp(config);
await app.listen(config.PORT, config.HOST);
startProbes(app, 'gateway', config);
