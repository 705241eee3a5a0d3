// Jest global setup: Postgres and Redis (see servers.mjs).
import { startServers } from './servers.mjs';

export default () => startServers({ redis: true });
