// Jest global setup of the gateway's tests: Postgres, Redis and a NATS with the bus's authorization (see servers.mjs).
import { startServers } from './servers.mjs';

export default () => startServers({ redis: true, nats: true });
