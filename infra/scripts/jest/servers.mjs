// Jest global setup for the test runs that need Postgres (and, for the gateway, Redis and a NATS
// with the bus's authorization), so that `npm run test:integration -w <package>` works on a fresh
// machine as `npm test` does: the server DATABASE_URL (REDIS_URL, NATS_URL) names when it answers,
// else npm test's own on loopback. Workers inherit the URLs through the environment; stop.mjs
// stops what was started here.
import { ensureNats, ensureRedis, ensureTestPostgres } from '../infrastructure.mjs';

export async function startServers({ redis = false, nats = false } = {}) {
  const postgres = await ensureTestPostgres();
  globalThis.vigilTestServers = [postgres];
  process.env.DATABASE_URL = postgres.url;
  if (redis) {
    const server = await ensureRedis();
    globalThis.vigilTestServers.push(server);
    process.env.REDIS_URL = server.url;
  }
  if (nats) {
    const bus = await ensureNats();
    globalThis.vigilTestServers.push(bus);
    process.env.NATS_URL = bus.url;
    // The gateway's in-process tests speak on this bus as the gateway (services/gateway/test/stack.ts).
    if (bus.keys) process.env.VIGIL_TEST_NATS_SEED = bus.keys.gateway.seed;
  }
}

export default () => startServers();
