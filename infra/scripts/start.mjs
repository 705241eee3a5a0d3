// `npm start`: the machine's packages, install, build, find or start Postgres and NATS (and
// OpenSearch with INDEX_ENGINE=opensearch), start the local SMTP catcher (MAIL_SMTP_PORT, 1025; its
// web inbox on MAIL_INBOX_PORT, 8025), start everything, print the URLs. Each step prints
// its duration.
import { build, checkNodeVersion, ensureInstalled, fail, log } from './bootstrap.mjs';
import { ensurePackages, timed } from './machine.mjs';

checkNodeVersion();
timed('Debian packages', () => ensurePackages(['nats-server'], { fail }));
timed('npm install', ensureInstalled);
timed('build', build);

const { ensureNats, ensurePostgres } = await import('./infrastructure.mjs');
const { portFromEnv, seedDemo, startStack } = await import('./stack.mjs');
const { mkdirSync, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { ROOT } = await import('./bootstrap.mjs');

const postgres = await timed('Postgres', () => ensurePostgres());
const nats = await timed('NATS', () => ensureNats());
// Every mail the product sends (auth's and billing's) goes over real SMTP to this local catcher.
const { startMailCatcher } = await import('./mail-catcher.mjs');
const mail = await timed('mail catcher', () =>
  startMailCatcher({ smtpPort: portFromEnv('MAIL_SMTP_PORT', 1025), webPort: portFromEnv('MAIL_INBOX_PORT', 8025) }),
);
// startStack hands the services this process's environment.
process.env.SMTP_URL = mail.smtpUrl;
// Screening's distributed index: OPENSEARCH_URL when it answers, else a node of our own on 9200.
let opensearch;
if (process.env.INDEX_ENGINE === 'opensearch') {
  const { ensureOpenSearch } = await import('./opensearch.mjs');
  opensearch = await ensureOpenSearch();
  // startStack hands the services this process's environment.
  process.env.OPENSEARCH_URL = opensearch.url;
}
let stack;
let stopStarting;
let shuttingDown = false;

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  log('Stopping...');
  await (stack?.stop ?? stopStarting)?.();
  await opensearch?.stop();
  await mail.stop();
  await nats.stop();
  await postgres.stop();
  log('Stopped.');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  stack = await timed('services and apps', () =>
    startStack({
      databaseUrl: postgres.url,
      natsUrl: nats.url,
      busKeys: nats.keys,
      ports: {
        gateway: portFromEnv('GATEWAY_PORT', 8080),
        web: portFromEnv('WEB_PORT', 3000),
        admin: portFromEnv('ADMIN_PORT', 3001),
        // auth, screening, monitoring, billing, audit, gateway: /metrics on 9464 to 9469
        probes: portFromEnv('PROBE_PORT_BASE', 9464),
      },
      onStop: (stop) => (stopStarting = stop),
    }),
  );
} catch (error) {
  await opensearch?.stop();
  await mail.stop();
  await nats.stop();
  await postgres.stop();
  fail(`Could not start Vigil: ${error.message}`);
}

let demo;
try {
  const seeded = await seedDemo({ ...stack.env, ...stack.serviceEnv('auth') }, stack.gatewayUrl);
  demo = {
    gatewayUrl: stack.gatewayUrl,
    webUrl: stack.webUrl,
    adminUrl: stack.adminUrl,
    mailInboxUrl: mail.inboxUrl,
    admin: seeded.admin,
    client: seeded.client,
    metrics: stack.metrics,
  };
  mkdirSync(join(ROOT, '.vigil'), { recursive: true });
  // Git-ignored, readable only by this user: it holds the demo passwords and key.
  writeFileSync(join(ROOT, '.vigil', 'demo.json'), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
} catch (error) {
  log(`Demo data was not seeded: ${error.message}`);
}

const up = Object.entries(stack.health.services)
  .map(([name, s]) => `${name} ${s.status}`)
  .join(', ');
process.stdout.write(`
\x1b[1mVigil is running.\x1b[0m  (${up})

  Gateway API     ${stack.gatewayUrl}        (health: ${stack.gatewayUrl}/health)
  Web app         ${stack.webUrl}
  Admin console   ${stack.adminUrl}
  Mail inbox      ${mail.inboxUrl}        (every mail the product sends; SMTP ${mail.smtpUrl})

Prometheus metrics (also in .vigil/demo.json under "metrics"):
${Object.entries(stack.metrics)
  .map(([name, url]) => `  ${name.padEnd(15)} ${url}`)
  .join('\n')}

${
  demo
    ? `Demo data (also in .vigil/demo.json):
  Admin           ${demo.admin.email} / ${demo.admin.password}
  Admin code      every admin route needs a second factor: add the secret ${demo.admin.totpSecret}
                  to an authenticator app, or print the current code with
                  node infra/scripts/totp.mjs ${demo.admin.totpSecret}
  Client          ${demo.client.name}: ${demo.client.email} / ${demo.client.password}
  API key         ${demo.client.apiKey}

Screen a name:
  curl -s ${stack.gatewayUrl}/api/v1/screen -H 'x-api-key: ${demo.client.apiKey}' \\
       -H 'content-type: application/json' -d '{"name":"Nicolas Maduro Moros"}'

`
    : ''
}Press Ctrl-C to stop everything.
`);
