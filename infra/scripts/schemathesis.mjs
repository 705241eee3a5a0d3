// Third-party conformance (issue #35): Schemathesis, from PyPI, generates requests from the
// gateway's /openapi.json and checks every answer against the same document: no 5xx, no status
// the operation does not document, no body off its schema, no wrong content type. `npm test` runs
// it on the browser step's stack once the browser tests are done with it (about a minute); by hand:
//
//   GATEWAY_URL=http://127.0.0.1:18080 SCHEMATHESIS_API_KEY=… SCHEMATHESIS_TOKEN=… \
//     [SCHEMATHESIS_ADMIN_EMAIL=… SCHEMATHESIS_ADMIN_PASSWORD=… SCHEMATHESIS_ADMIN_TOTP_SECRET=…] \
//     node infra/scripts/schemathesis.mjs
//
// With an administrator the admin operations run under its aal2 session, the destructive ones on a
// client created for them (writeAdminConfig); without one they can only be refused (401/403).
//
// Schemathesis is installed once into a virtual environment under .vigil/ (a pinned version: a new
// release cannot change what passes); later runs find it there and cost nothing to set up.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, log } from './bootstrap.mjs';
import { currentCode } from './totp.mjs';

export const SCHEMATHESIS_VERSION = '4.32.5';
const VENV = join(ROOT, '.vigil', `schemathesis-${SCHEMATHESIS_VERSION}`);
const ST = join(VENV, 'bin', 'st');

/**
 * Test cases per operation and phase: enough for every documented field, example and link to be
 * tried (the examples and coverage phases are deterministic), few enough that the run takes seconds.
 */
const MAX_EXAMPLES = 4;
/** A hang guard, far above what a run takes (--max-time would instead fuzz until it is spent). */
const TIME_LIMIT_S = 300;

/**
 * The phases npm test runs: the examples, property-based fuzzing and stateful sequences over the
 * document's links take about a minute. The coverage phase (every boundary value and unexpected
 * method of every operation, deterministically: about 4 minutes on a 2-core runner) is for a
 * change to the document: SCHEMATHESIS_PHASES=examples,coverage,fuzzing,stateful.
 */
const PHASES = process.env.SCHEMATHESIS_PHASES ?? 'examples,fuzzing,stateful';

/**
 * The checks. Left out, each for its reason:
 * - positive_data_acceptance: a request valid for the schema may still be refused on the state it
 *   meets (an unknown id is 404, a member not yet invited cannot be removed), as documented.
 * - ignored_auth, object_level_authorization, use_after_free, ensure_resource_availability:
 *   the security suite (npm run test:security) proves access control with two tenants, which
 *   a one-caller fuzzer cannot.
 * - missing_required_header: it strips one header at a time, including Authorization from routes
 *   that take the key or a session, and expects 406-style answers we do not give (401 is ours).
 */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'unsupported_method',
  'allow_header_conformance',
];

/**
 * Operations a fuzzer must not call with the one session and key the run holds: each would take
 * them away from every later request (their own suites test them).
 */
export const EXCLUDED_OPERATIONS = [
  // Rotates the API key every other request presents.
  'POST /api/settings/regenerate-api-key',
  // End the session every other request presents (the id comes from GET /auth/v1/sessions by a link).
  'POST /auth/v1/logout',
  'DELETE /auth/v1/sessions/{id}',
];

/**
 * Administrator operations that change or remove a client other callers use: with the admin's token
 * they would delete the run's own client or take its key away. The run points their `{id}` at
 * clients it creates for the purpose (one to delete, one to re-key, so that deleting the first does
 * not leave the others only 404s), and keeps them out of the stateful phase, whose links would
 * otherwise hand them an id from GET /api/client/clients (the run's own client among them).
 */
export const THROWAWAY_CLIENT_OPERATIONS = {
  'DELETE /api/client/clients/{id}': 'removed',
  'POST /api/client/clients/{id}/regenerate-key': 'rekeyed',
  'POST /api/client/clients/{id}/revoke-key': 'rekeyed',
  'PUT /api/client/clients/{id}/thresholds': 'rekeyed',
};

const LOOK_UP_BY_KEY = 'GET /api/client/clients/api-key/{key}';

/** The operations the document reserves to an administrator (`adminSession`), as Schemathesis names them. */
export async function adminOperations(gatewayUrl) {
  const response = await fetch(`${gatewayUrl}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = await response.json();
  const names = [];
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, operation] of Object.entries(item)) {
      const security = operation?.security ?? [];
      if (security.some((requirement) => 'adminSession' in requirement)) names.push(`${method.toUpperCase()} ${path}`);
    }
  return names;
}

/**
 * An administrator's access token at aal2 (every admin route needs the second factor): the password
 * grant, then a challenge of the verified authenticator answered with its code. Auth takes each 30 s
 * step's code once and the browser tests may have just spent the current one, so the next step's
 * code is tried first, then the current and the last, then the same after waiting a step.
 * @param {{ gatewayUrl: string, email: string, password: string, totpSecret: string }} admin
 */
export async function adminToken({ gatewayUrl, email, password, totpSecret }) {
  const signIn = await fetch(`${gatewayUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!signIn.ok) throw new Error(`the admin's sign-in answered ${signIn.status}`);
  const session = await signIn.json();
  const factor = session.user?.factors?.find((f) => f.status === 'verified');
  if (!factor) throw new Error(`${email} has no verified authenticator`);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` };
  const factorUrl = `${gatewayUrl}/auth/v1/factors/${factor.id}`;
  for (let round = 0; round < 2; round++) {
    for (const offset of [30_000, 0, -30_000]) {
      const challenge = await fetch(`${factorUrl}/challenge`, { method: 'POST', headers });
      if (!challenge.ok) throw new Error(`the factor challenge answered ${challenge.status}`);
      const { id } = await challenge.json();
      const verified = await fetch(`${factorUrl}/verify`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ challenge_id: id, code: currentCode(totpSecret, Date.now() + offset) }),
      });
      if (verified.ok) return (await verified.json()).access_token;
    }
    await new Promise((resolve) => setTimeout(resolve, 30_500 - (Date.now() % 30_000)));
  }
  throw new Error(`no code of ${email}'s authenticator was accepted`);
}

/** The clients created for the destructive admin operations to delete and re-key (their ids). */
export async function throwawayClients(gatewayUrl, token) {
  const create = async (clientName) => {
    const response = await fetch(`${gatewayUrl}/api/client/clients/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ clientName, tier: 'starter' }),
    });
    if (!response.ok) throw new Error(`creating the throwaway client ${clientName} answered ${response.status}`);
    return (await response.json()).id;
  };
  return { removed: await create('Schemathesis: to delete'), rekeyed: await create('Schemathesis: to re-key') };
}

/**
 * The schemathesis.toml that gives the admin operations the admin's token (the key and the client's
 * session stay on every other operation) and pins the destructive ones to the throwaway clients.
 * Written to a private temporary directory, not the report: it holds a live token.
 * @param {{ token: string, operations: string[], throwawayClients: { removed: string, rekeyed: string } }} admin
 * @param {string} apiKey the run's own key
 */
function writeAdminConfig({ token, operations, throwawayClients }, apiKey) {
  const toml = (value) => JSON.stringify(value);
  const lines = ['[[operations]]', `include-name = ${toml(operations)}`];
  lines.push(`headers = { Authorization = ${toml(`Bearer ${token}`)} }`, '');
  // A read: the run's own key finds its client (a generated key only ever finds none, 404).
  if (operations.includes(LOOK_UP_BY_KEY))
    lines.push(
      '[[operations]]',
      `include-name = ${toml(LOOK_UP_BY_KEY)}`,
      `parameters = { "path.key" = ${toml(apiKey)} }`,
      '',
    );
  for (const [name, client] of Object.entries(THROWAWAY_CLIENT_OPERATIONS)) {
    if (!operations.includes(name)) continue;
    lines.push('[[operations]]', `include-name = ${toml(name)}`);
    lines.push(`parameters = { "path.id" = ${toml(throwawayClients[client])} }`);
    lines.push('phases.stateful.enabled = false', '');
  }
  const dir = mkdtempSync(join(tmpdir(), 'vigil-schemathesis-'));
  const file = join(dir, 'schemathesis.toml');
  writeFileSync(file, lines.join('\n'), { mode: 0o600 });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The `st` executable of the pinned Schemathesis, installed on first use. */
export function ensureSchemathesis() {
  if (existsSync(ST)) return ST;
  const python = ['python3', 'python'].find(
    (name) => spawnSync(name, ['--version'], { encoding: 'utf8' }).status === 0,
  );
  if (!python)
    throw new Error(
      'Schemathesis needs Python 3.9 or later with its venv module (Debian: apt-get install python3 python3-venv).',
    );
  log(`Installing Schemathesis ${SCHEMATHESIS_VERSION} from PyPI into ${VENV} (once)...`);
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(join(ROOT, '.vigil'), { recursive: true });
  const steps = [
    [python, ['-m', 'venv', VENV]],
    [
      join(VENV, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`],
    ],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) {
      rmSync(VENV, { recursive: true, force: true });
      throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    }
  }
  return ST;
}

/**
 * Runs Schemathesis against `gatewayUrl` with the API key and the session token of one user of
 * that key's client, prints its counts, and returns them (`failures` > 0 or `status` ≠ 0 fails).
 * `admin`: an administrator's aal2 token for the admin operations in the same run (without it they
 * can only be refused), and the throwaway clients the destructive ones act on (writeAdminConfig).
 * @param {{ gatewayUrl: string, apiKey: string, accessToken: string, reportDir?: string,
 *   admin?: { token: string, operations: string[], throwawayClients: { removed: string, rekeyed: string } } }} options
 */
export function runSchemathesis({
  gatewayUrl,
  apiKey,
  accessToken,
  reportDir = join(ROOT, 'test-results', 'schemathesis'),
  admin,
}) {
  const st = ensureSchemathesis();
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const report = join(reportDir, 'report.ndjson');
  const adminConfig = admin ? writeAdminConfig(admin, apiKey) : undefined;
  const started = Date.now();
  const args = [
    ...(adminConfig ? ['--config-file', adminConfig.file] : []),
    'run',
    `${gatewayUrl}/openapi.json`,
    '--url',
    gatewayUrl,
    '--header',
    `x-api-key: ${apiKey}`,
    '--header',
    `Authorization: Bearer ${accessToken}`,
    '--checks',
    CHECKS.join(','),
    '--phases',
    PHASES,
    '--max-examples',
    String(MAX_EXAMPLES),
    '--seed',
    '35',
    '--workers',
    '2',
    '--no-shrink',
    // The gateway's own deadline on a backend is 30 s in this run (browser-tests.mjs): wait as long.
    '--request-timeout',
    '35',
    '--suppress-health-check',
    'all',
    '--report',
    'ndjson,junit',
    '--report-ndjson-path',
    report,
    '--report-junit-path',
    join(reportDir, 'junit.xml'),
    ...EXCLUDED_OPERATIONS.flatMap((operation) => ['--exclude-name', operation]),
  ];
  const result = spawnSync(st, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, SCHEMATHESIS_HOOKS: '', NO_COLOR: '1' },
    timeout: TIME_LIMIT_S * 1000,
  });
  adminConfig?.remove();
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(join(reportDir, 'output.txt'), output);
  process.stdout.write(withoutPytestBanners(output));
  const seconds = Math.round((Date.now() - started) / 1000);
  const counts = countsOf(report);
  log(
    `schemathesis ${SCHEMATHESIS_VERSION}: ${counts.operations} operations, ${counts.cases} test cases, ` +
      `${counts.checks} checks, ${counts.failures} failures, ${counts.errors} errors ` +
      `(${seconds} s, exit ${result.status ?? result.signal})`,
  );
  // A run that reported nothing (it could not load the document, say) proves nothing.
  const status = counts.operations === 0 ? 1 : (result.status ?? 1);
  return { ...counts, seconds, status };
}

/**
 * Schemathesis closes with pytest's banner ("==== 4 warnings in 52.45s ===="), and CI reads a
 * pytest closing line that counts no passed test as a run that executed no test: the whole npm
 * test run was once judged "ran no test" for it. The banners are reworded here (the verbatim
 * output is in test-results/schemathesis/output.txt); our own count line follows.
 */
export function withoutPytestBanners(text) {
  return text
    .split('\n')
    .map((line) => {
      const banner = /^=+ (.*?) =+$/.exec(line.trim());
      if (!banner) return line;
      return `-- ${banner[1].replace(/ in ([\d.]+)s$/, ' ($1 s)')} --`;
    })
    .join('\n');
}

/** Operations, test cases, checks and failed checks from the run's NDJSON events. */
function countsOf(report) {
  const counts = { operations: 0, cases: 0, checks: 0, failures: 0, errors: 0 };
  if (!existsSync(report)) return counts;
  const operations = new Set();
  for (const line of readFileSync(report, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line);
    if (event.NonFatalError) counts.errors += 1;
    const recorder = event.ScenarioFinished?.recorder;
    if (!recorder) continue;
    if (recorder.label) operations.add(recorder.label);
    counts.cases += Object.keys(recorder.cases ?? {}).length;
    for (const checks of Object.values(recorder.checks ?? {}))
      for (const check of checks) {
        counts.checks += 1;
        if (check.status === 'failure') counts.failures += 1;
      }
  }
  counts.operations = operations.size;
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { GATEWAY_URL, SCHEMATHESIS_API_KEY, SCHEMATHESIS_TOKEN } = process.env;
  if (!GATEWAY_URL || !SCHEMATHESIS_API_KEY || !SCHEMATHESIS_TOKEN) {
    process.stderr.write('Set GATEWAY_URL, SCHEMATHESIS_API_KEY and SCHEMATHESIS_TOKEN.\n');
    process.exit(2);
  }
  // Optional: an administrator (with its authenticator's secret) for the admin operations.
  const { SCHEMATHESIS_ADMIN_EMAIL: email, SCHEMATHESIS_ADMIN_PASSWORD: password } = process.env;
  const totpSecret = process.env.SCHEMATHESIS_ADMIN_TOTP_SECRET;
  let admin;
  if (email && password && totpSecret) {
    const token = await adminToken({ gatewayUrl: GATEWAY_URL, email, password, totpSecret });
    admin = {
      token,
      operations: await adminOperations(GATEWAY_URL),
      throwawayClients: await throwawayClients(GATEWAY_URL, token),
    };
  }
  const outcome = runSchemathesis({
    gatewayUrl: GATEWAY_URL,
    apiKey: SCHEMATHESIS_API_KEY,
    accessToken: SCHEMATHESIS_TOKEN,
    admin,
  });
  process.exit(outcome.status === 0 && outcome.failures === 0 ? 0 : 1);
}
