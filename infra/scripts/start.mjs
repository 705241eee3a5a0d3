// `npm start`: install, build, find or start Postgres and NATS, start everything, print the URLs.
import { build, checkNodeVersion, ensureInstalled, fail, log } from './bootstrap.mjs';

checkNodeVersion();
ensureInstalled();
build();

const { ensureNats, ensurePostgres } = await import('./infrastructure.mjs');
const { portFromEnv, startStack } = await import('./stack.mjs');

const postgres = await ensurePostgres();
const nats = await ensureNats();
let stack;
let shuttingDown = false;

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  log('Stopping...');
  await stack?.stop();
  await nats.stop();
  await postgres.stop();
  log('Stopped.');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  stack = await startStack({
    databaseUrl: postgres.url,
    natsUrl: nats.url,
    ports: {
      gateway: portFromEnv('GATEWAY_PORT', 8080),
      web: portFromEnv('WEB_PORT', 3000),
      admin: portFromEnv('ADMIN_PORT', 3001),
    },
  });
} catch (error) {
  await nats.stop();
  await postgres.stop();
  fail(`Could not start Vigil: ${error.message}`);
}

const up = Object.entries(stack.health.services).map(([name, s]) => `${name} ${s.status}`).join(', ');
process.stdout.write(`
\x1b[1mVigil is running.\x1b[0m  (${up})

  Gateway API     ${stack.gatewayUrl}        (health: ${stack.gatewayUrl}/health)
  Web app         ${stack.webUrl}
  Admin console   ${stack.adminUrl}

Press Ctrl-C to stop everything.
`);
