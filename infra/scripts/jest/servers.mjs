// Jest global setup for the test runs that need Postgres (and, for the gateway, Redis), so that
// `npm run test:integration -w <package>` works on a fresh machine as `npm test` does: the server
// DATABASE_URL (REDIS_URL) names when it answers, else npm test's own on loopback. Workers inherit
// the URL through the environment; stop.mjs stops what was started here.
import { ensureRedis, ensureTestPostgres } from '../infrastructure.mjs';

export async function startServers({ redis = false } = {}) {
  const started = [await ensureTestPostgres()];
  process.env.DATABASE_URL = started[0].url;
  if (redis) {
    started.push(await ensureRedis());
    process.env.REDIS_URL = started[1].url;
  }
  globalThis.vigilTestServers = started;
}

export default () => startServers();
