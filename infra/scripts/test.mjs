// `npm test`: the machine's packages, install, Postgres, NATS, Redis and OpenSearch, lint, build and
// type-check, unit tests, manifest and infrastructure tests, integration tests against real
// Postgres and NATS, browser tests against the whole stack, then the security and resilience
// suites. Each step prints its duration, and a table of them comes before the one summary line
// counting every test that ran.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, build, checkNodeVersion, ensureInstalled, fail, log, nxEnv, run } from './bootstrap.mjs';
import { durationsTable, ensurePackages, timed } from './machine.mjs';

checkNodeVersion();
// Before anything slow: a package that cannot be had stops the run in its first second.
timed('Debian packages', () => ensurePackages(['nats-server', 'redis-server', 'chromium'], { fail }));
// OpenSearch is installed from Maven Central with Maven and runs on Java 17.
const { checkToolchain, ensureOpenSearch } = await import('./opensearch.mjs');
timed('Java and Maven', () => checkToolchain(fail));
timed('npm install', ensureInstalled);

const summaryDir = join(ROOT, 'test-results', 'summary');
rmSync(summaryDir, { recursive: true, force: true });
const env = { ...nxEnv(), VIGIL_TEST_SUMMARY_DIR: summaryDir, NODE_OPTIONS: '--experimental-vm-modules' };
const MINUTES = 60_000;
const jest = (config, extraEnv = {}, args = []) =>
  run(
    process.execPath,
    ['--experimental-vm-modules', join('node_modules', 'jest', 'bin', 'jest.js'), '-c', config, ...args],
    {
      env: { ...env, ...extraEnv },
      allowFailure: true,
      timeoutMs: 20 * MINUTES,
    },
  );
const failures = [];
const step = (name, status) => {
  if (status !== 0) failures.push(name);
};

timed('lint', () => step('lint', run('npx', ['eslint', '.', '--max-warnings', '0'], { allowFailure: true })));
// Before any server starts: a failed build exits the run, and would leave them running.
timed('build', build);

// DATABASE_URL, NATS_URL and REDIS_URL when they answer; otherwise servers of our own on loopback.
const { ensureNats, ensureRedis, ensureTestPostgres } = await import('./infrastructure.mjs');
const postgres = await timed('Postgres', ensureTestPostgres);
const nats = await timed('NATS', () => ensureNats());
const redis = await timed('Redis', () => ensureRedis());
// The search-index engine's contract suite runs against it (a unit test: it needs no stack).
// Not 9200, where npm start's node or a developer's cluster may answer. It times its own steps.
const opensearch = await ensureOpenSearch({ port: 9250 });
const infraEnv = {
  DATABASE_URL: postgres.url,
  NATS_URL: nats.url,
  REDIS_URL: redis.url,
  OPENSEARCH_URL: opensearch.url,
  // Our own nats-server has the bus's authorization: the gateway's tests run an in-process
  // gateway on it with the gateway's key (services/gateway/test/stack.ts).
  ...(nats.keys ? { VIGIL_TEST_NATS_SEED: nats.keys.gateway.seed } : {}),
};

try {
  step(
    'typecheck + unit',
    // Tests always run: a result replayed from the Nx cache would not be counted in the summary.
    timed('type checks and unit tests', () =>
      // Some packages' unit tests reach Postgres and Redis too (the platform's Database port).
      run('npx', ['nx', 'run-many', '-t', 'typecheck', 'test', '--outputStyle=static', '--skip-nx-cache'], {
        env: { ...env, ...infraEnv },
        allowFailure: true,
        timeoutMs: 20 * MINUTES,
      }),
    ),
  );

  // The test folders outside Nx projects get their own type check.
  for (const project of [
    join('infra', 'test', 'tsconfig.json'),
    join('web', 'e2e', 'tsconfig.json'),
    join('infra', 'k6', 'tsconfig.json'),
  ]) {
    step(`typecheck ${project}`, run('npx', ['tsc', '-p', project, '--noEmit'], { allowFailure: true }));
  }

  step(
    'infrastructure',
    timed('manifest and infrastructure tests', () => jest(join('infra', 'test', 'jest.config.js'), infraEnv)),
  );

  step(
    'integration',
    timed('integration tests (real Postgres and NATS)', () =>
      run('npx', ['nx', 'run-many', '-t', 'test:integration', '--outputStyle=static', '--parallel=1'], {
        env: { ...env, ...infraEnv },
        allowFailure: true,
        // A hang guard, not a budget: on a slower 2-core host the projects took about 16 minutes.
        timeoutMs: 30 * MINUTES,
      }),
    ),
  );

  const { runBrowserTests } = await import('./browser-tests.mjs');
  const browser = await timed('browser tests against the whole stack', () =>
    runBrowserTests({
      postgresUrl: postgres.url,
      natsUrl: nats.url,
      busKeys: nats.keys,
      runJest: (browserEnv, args) => jest(join('web', 'e2e', 'jest.config.js'), { ...infraEnv, ...browserEnv }, args),
      // Schemathesis against the same stack once the browser tests are done with it (issue #35).
      conformance: true,
    }),
  );
  if (browser.stackFailed) failures.push('stack');
  else {
    step('browser', browser.status);
    step('schemathesis', browser.conformance?.status ?? 1);
    step('load smoke', browser.conformance?.loadSmoke ?? 1);
  }

  // The proof suites (issue #24), each on a stack of its own: private ports and NATS, so they
  // collide neither with the browser stack's fixed ports nor with the NATS on 4222.
  const securityDb = new URL(postgres.url);
  securityDb.pathname = '/vigil_security';
  step(
    'security',
    timed('security suite (npm run test:security, on a private stack)', () =>
      run(process.execPath, [join('infra', 'suites', 'security', 'security.mjs')], {
        env: { ...env, SECURITY_PRIVATE_STACK: '1', DATABASE_URL: securityDb.toString() },
        allowFailure: true,
        timeoutMs: 10 * MINUTES,
      }),
    ),
  );
  step(
    'resilience',
    timed('resilience suite (its own Postgres cluster and nats-server)', () =>
      run(process.execPath, [join('infra', 'suites', 'resilience', 'resilience.mjs')], {
        env,
        allowFailure: true,
        timeoutMs: 15 * MINUTES,
      }),
    ),
  );
} finally {
  await opensearch.stop();
  await redis.stop();
  await nats.stop();
  await postgres.stop();
}

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(summaryDir)) {
  for (const file of readdirSync(summaryDir)) {
    const counts = JSON.parse(readFileSync(join(summaryDir, file), 'utf8'));
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
}
process.stdout.write(`\n${durationsTable()}\n`);
if (failures.length > 0) log(`Failed steps: ${failures.join(', ')}`);
process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
if (failures.length > 0 || failed > 0 || passed === 0) {
  if (failures.length === 0) fail('Some tests failed.');
  process.exit(1);
}
