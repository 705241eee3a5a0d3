// Writes the gateway's OpenAPI document, as GET /openapi.json serves it (less `servers`), without
// listening on a port: for Spectral and the SDK's generator, from the built gateway (npm run build).
//   node services/gateway/scripts/openapi.mjs [out.json]    (stdout without a path)
// The app still connects as it boots: NATS_URL, DATABASE_URL and REDIS_URL name what it reaches.
import { writeFile } from 'node:fs/promises';
import { parseConfig } from '@vigil/platform';
import { envSchema } from '../dist/src/env.js';
import { createGatewayApp } from '../dist/src/http/create-app.js';
import { buildOpenApiDocument } from '../dist/src/openapi/openapi.js';

const config = parseConfig(envSchema, { ...process.env, LOG_LEVEL: 'error', BULK_WORKER: 'false' });
const app = await createGatewayApp(config);
await app.init();
const text = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
await app.close();
if (process.argv[2]) await writeFile(process.argv[2], text);
else process.stdout.write(text);
