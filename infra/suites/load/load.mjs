// `npm run load:<smoke|load|soak|spike|stress|breakpoint>`: one scenario of scenarios.mjs (the table the
// k6 scripts of infra/k6 are generated from) against a gateway, with runner.mjs. Leaves
// test-results/load/<scenario>-<time>/summary.json and report.html; the thresholds decide the exit code
// (0 passed, 1 a threshold failed, 2 the run could not start).
//
// Target: GATEWAY_URL with API_KEYS (or API_KEY) and, for the dashboard route, LOAD_EMAIL and
// LOAD_PASSWORD of a user of the same client (a GATEWAY_URL that does not answer within a minute fails the
// run); by default the stack `npm start` wrote to .vigil/demo.json and its demo client. When nothing
// answers there (or LOAD_PRIVATE_STACK=1), a private stack is started
// for the run: gateway and web apps on VIGIL_BROWSER_PORTS when set (else free ports), its own
// nats-server (on NATS_URL's port when set), a fresh database on DATABASE_URL's server, the tier's rate
// limit lifted unless the scenario enforces it, and the demo client's monthly quota raised so the run
// measures the path rather than the quota.
//
// Knobs: LOAD_TIME_SCALE (durations × this, e.g. 0.1 for a ten-times shorter soak), LOAD_RATE_SCALE
// (rates × this), LOAD_OUT (the results folder).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, fail, log } from '../../scripts/bootstrap.mjs';
import { summarise, summaryText, writeReport } from './report.mjs';
import { runScenario } from './runner.mjs';
import { SCENARIOS, SCENARIO_NAMES } from './scenarios.mjs';

async function answers(url) {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

/** The demo client's monthly quota raised over the bus (as billing does on an upgrade). */
async function liftQuota(natsUrl, harnessSeed, clientId) {
  const { connect } = await import('@nats-io/transport-node');
  const { natsConnectionOptions } = await import('@vigil/platform');
  const nc = await connect({
    ...natsConnectionOptions(natsUrl, 'load-harness', { seed: harnessSeed }),
    maxReconnectAttempts: 0,
  });
  try {
    const reply = await nc.request(
      'clients.v1.update-subscription',
      JSON.stringify({ id: String(Date.now()), data: { clientId, quotaMonth: 1_000_000_000 } }),
      { timeout: 10_000 },
    );
    const body = reply.json();
    if (body.err) throw new Error(`clients.v1.update-subscription: ${JSON.stringify(body.err)}`);
  } finally {
    await nc.close();
  }
}

function ports() {
  const given = (process.env.VIGIL_BROWSER_PORTS ?? '').split(',').map(Number).filter(Boolean);
  return given.length === 3 ? { gateway: given[0], web: given[1], admin: given[2] } : undefined;
}

async function privateStack(scenarioName, scenario) {
  log(`Starting a private stack for the ${scenarioName} scenario...`);
  const { freshDatabase } = await import('../../scripts/infrastructure.mjs');
  const { privatePorts, startNats, startPrivateStack } = await import('../private-stack.mjs');
  const natsPort = process.env.NATS_URL ? Number(new URL(process.env.NATS_URL).port) : (await privatePorts(1))[0];
  // A fresh store: streams left by an earlier run would describe a database that no longer exists.
  const storeDir = mkdtempSync(join(tmpdir(), 'vigil-load-nats-'));
  const nats = await startNats({ port: natsPort, storeDir });
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_load';
  try {
    const stack = await startPrivateStack({
      databaseUrl: await freshDatabase(base, 'vigil_load'),
      natsUrl: nats.url,
      busKeys: nats.keys,
      logDir: join(ROOT, 'test-results', 'load-stack-logs'),
      ports: ports(),
      env: scenario.rateLimits === 'enforced' ? {} : { RATE_LIMIT_SCALE: '1000' },
    });
    await liftQuota(nats.url, nats.keys.harness.seed, stack.demo.client.id);
    return {
      url: stack.gatewayUrl,
      keys: [stack.demo.client.apiKey],
      credentials: { email: stack.demo.client.email, password: stack.demo.client.password },
      stop: async () => {
        await stack.stop();
        await nats.stop();
        rmSync(storeDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await nats.stop();
    throw error;
  }
}

async function target(scenarioName, scenario) {
  const demoFile = join(ROOT, '.vigil', 'demo.json');
  const demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : undefined;
  const url = (process.env.GATEWAY_URL ?? demo?.gatewayUrl ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  const keys = (process.env.API_KEYS ?? process.env.API_KEY ?? demo?.client?.apiKey ?? '').split(',').filter(Boolean);
  const credentials = process.env.LOAD_EMAIL
    ? { email: process.env.LOAD_EMAIL, password: process.env.LOAD_PASSWORD }
    : demo?.client && { email: demo.client.email, password: demo.client.password };
  if (process.env.LOAD_PRIVATE_STACK !== '1' && keys.length && (await answers(url)))
    return { url, keys, credentials, stop: async () => {} };
  // A gateway named on purpose is the one to measure: one still recovering from the previous run gets
  // a minute, and is never silently swapped for a private stack.
  if (process.env.GATEWAY_URL && process.env.LOAD_PRIVATE_STACK !== '1') {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (await answers(url)) return { url, keys, credentials, stop: async () => {} };
      await new Promise((r) => setTimeout(r, 2_000));
    }
    throw new Error(`GATEWAY_URL ${url} does not answer /health with 200`);
  }
  return privateStack(scenarioName, scenario);
}

/** Runs one scenario end to end; the test run calls it against the browser stack (smoke). */
export async function loadScenario({ scenarioName, url, keys, credentials, outDir, timeScale = 1, rateScale = 1 }) {
  const scenario = SCENARIOS[scenarioName];
  log(`load:${scenarioName} against ${url}: ${scenario.description}`);
  const run = await runScenario({
    scenarioName,
    scenario,
    url,
    keys,
    credentials,
    timeScale,
    rateScale,
    onProgress: (line) => process.stderr.write(`  ${line}\n`),
  });
  const summary = summarise(run, scenario);
  const stamp = summary.startedAt.replace(/[:.]/g, '-');
  const files = writeReport(summary, join(outDir ?? join(ROOT, 'test-results', 'load'), `${scenarioName}-${stamp}`));
  process.stdout.write(`${summaryText(summary)}\n  report: ${files.html}\n  summary: ${files.json}\n`);
  return summary;
}

async function main() {
  const scenarioName = process.argv[2];
  if (!SCENARIO_NAMES.includes(scenarioName)) fail(`usage: load.mjs ${SCENARIO_NAMES.join('|')}`);
  const t = await target(scenarioName, SCENARIOS[scenarioName]);
  try {
    const summary = await loadScenario({
      scenarioName,
      url: t.url,
      keys: t.keys,
      credentials: t.credentials,
      outDir: process.env.LOAD_OUT,
      timeScale: Number(process.env.LOAD_TIME_SCALE ?? 1),
      rateScale: Number(process.env.LOAD_RATE_SCALE ?? 1),
    });
    process.exitCode = summary.passed ? 0 : 1;
  } finally {
    await t.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stderr.write(`load could not run: ${error.stack ?? error.message}\n`);
    process.exit(2);
  });
}
