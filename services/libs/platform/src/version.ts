import { createRequire } from 'node:module';

// One version for the whole platform: services are released together.
export const VIGIL_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
