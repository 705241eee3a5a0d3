import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_URL } from './browser.js';

// The Python, Java and Go SDKs against this run's gateway: each one's own test runner (its unit
// tests and its live tests: screen a name with the API key into the generated type, a bad request
// into a typed problem, the shared webhook vector), then its README example as written. Their
// runners' closing lines are printed, so each SDK's live run shows in the CI log. Then the README's
// local webhook program, as written: its receiver on 127.0.0.1 verifies a signed test event with the
// SDK's verifier (the stack's monitoring runs with WEBHOOK_ALLOW_LOOPBACK=true).
const SDK_DIR = fileURLToPath(new URL('../../sdk/', import.meta.url));
const MINUTES = 60_000;

function liveEnv(): NodeJS.ProcessEnv {
  const key = process.env.DEMO_CLIENT_API_KEY;
  if (!key)
    throw new Error('DEMO_CLIENT_API_KEY is not set: run the browser tests through infra/scripts/browser-tests.mjs');
  return { ...process.env, NODE_OPTIONS: '', VIGIL_API_URL: GATEWAY_URL, VIGIL_API_KEY: key };
}

/** Runs a command in an SDK's folder; a missing toolchain fails with the line that installs it. */
function run(sdk: string, command: string, args: string[], install: string, timeout = 5 * MINUTES) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: join(SDK_DIR, sdk), env: liveEnv(), encoding: 'utf8', timeout });
  if (result.error) throw new Error(`${command} could not run (${result.error.message}); install it: ${install}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const output =
    `${result.stdout}\n${result.stderr}`.trim() + (result.status === 0 ? '' : `\nMissing a toolchain? ${install}`);
  return { status: result.status, stdout: result.stdout, output, seconds };
}

/** The runner's closing lines, for the CI log. */
function report(sdk: string, what: string, output: string, seconds: string, lines: RegExp) {
  const summary = output.split('\n').filter((line) => lines.test(line));
  process.stdout.write(`sdk/${sdk} ${what} (${seconds} s): ${summary.join(' | ')}\n`);
}

/**
 * A python3 that has the SDK's dependency (pydantic) and pytest: the machine's when it has them, else
 * a virtual environment in the user's cache that pip fills once from PyPI.
 */
function python(install: string): string {
  const probe = (bin: string) => run('python', bin, ['-c', 'import pydantic, pytest'], install).status === 0;
  if (probe('python3')) return 'python3';
  const venv = join(homedir(), '.cache', 'vigil', 'sdk-python-test');
  const bin = join(venv, 'bin', 'python3');
  if (!existsSync(bin) || !probe(bin)) {
    expect(run('python', 'python3', ['-m', 'venv', '--system-site-packages', venv], install).status).toBe(0);
    const pip = run('python', bin, ['-m', 'pip', 'install', '-q', 'pydantic>=2.6,<3', 'pytest>=8'], install);
    expect([pip.status, pip.output]).toEqual([0, expect.anything()]);
  }
  return bin;
}

/** The README's first ```language block, or the first one under its `## heading`. */
function readmeExample(sdk: string, language: string, heading?: string): string {
  const readme = readFileSync(join(SDK_DIR, sdk, 'README.md'), 'utf8');
  const text = heading ? (readme.split(`\n## ${heading}\n`)[1] ?? '') : readme;
  const example = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text)?.[1];
  if (!example)
    throw new Error(`sdk/${sdk}/README.md has no \`\`\`${language} example${heading ? ` under ${heading}` : ''}`);
  return example;
}

/** The section whose program takes a signed test event to a receiver on 127.0.0.1 and verifies it. */
const LOCAL_WEBHOOK = 'Receiving a test webhook on 127.0.0.1';

/** That program registered, tested and deleted a webhook, and its receiver verified the delivery. */
function expectVerifiedDelivery(result: { status: number | null; stdout: string; output: string }) {
  expect([result.status, result.output]).toEqual([0, expect.stringMatching(/^verified test delivery \S+$/m)]);
}

function expectScreened(stdout: string) {
  const answer = JSON.parse(stdout) as { match: boolean; results: Array<{ name: string }>; listVersions: unknown[] };
  expect(answer.match).toBe(true);
  expect(answer.results.length).toBeGreaterThan(0);
  expect(answer.listVersions.length).toBeGreaterThan(0);
}

describe('the Python, Java and Go SDKs against the running gateway', () => {
  it(
    'Python: pytest passes its unit and live tests, and the README examples (screening, webhook on 127.0.0.1) run',
    () => {
      const install = 'apt-get install python3 python3-venv (pydantic and pytest come from PyPI into ~/.cache/vigil)';
      const python3 = python(install);
      const tests = run(
        'python',
        python3,
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests', 'tests_live'],
        install,
      );
      report('python', 'pytest', tests.output, tests.seconds, /passed|failed|error/i);
      expect([tests.status, tests.output]).toEqual([0, expect.stringMatching(/\d+ passed/)]);

      const file = join(SDK_DIR, 'python', '.readme_example.py');
      writeFileSync(file, readmeExample('python', 'python'));
      try {
        const example = run(
          'python',
          python3,
          ['-c', `import sys; sys.path.insert(0, "src"); exec(open("${file}").read())`],
          install,
        );
        expect([example.status, example.output]).toEqual([0, expect.anything()]);
        expectScreened(example.stdout);

        writeFileSync(file, readmeExample('python', 'python', LOCAL_WEBHOOK));
        const delivery = run(
          'python',
          python3,
          ['-c', `import sys; sys.path.insert(0, "src"); exec(open("${file}").read())`],
          install,
        );
        report('python', 'webhook on 127.0.0.1', delivery.output, delivery.seconds, /^verified/);
        expectVerifiedDelivery(delivery);
      } finally {
        rmSync(file, { force: true });
      }
    },
    10 * MINUTES,
  );

  it(
    'Go: go test -tags live passes, and the README examples (screening, webhook on 127.0.0.1) run',
    () => {
      const install = 'Go 1.24 or later: https://go.dev/doc/install';
      const tests = run('go', 'go', ['test', '-tags', 'live', '-count=1', '-v', './...'], install);
      report('go', 'go test -tags live', tests.output, tests.seconds, /^(ok|FAIL|--- FAIL)/);
      expect([tests.status, tests.output]).toEqual([
        0,
        expect.stringMatching(/--- PASS: TestLiveScreensANameIntoTheGeneratedType/),
      ]);

      const dir = join(SDK_DIR, 'go', '_readme');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'main.go'), readmeExample('go', 'go'));
      try {
        // -tags live as above, so the package compiled for the tests is reused from Go's build cache.
        const example = run('go', 'go', ['run', '-tags', 'live', './_readme'], install);
        expect([example.status, example.output]).toEqual([0, expect.anything()]);
        expectScreened(example.stdout);

        writeFileSync(join(dir, 'main.go'), readmeExample('go', 'go', LOCAL_WEBHOOK));
        const delivery = run('go', 'go', ['run', '-tags', 'live', './_readme'], install);
        report('go', 'webhook on 127.0.0.1', delivery.output, delivery.seconds, /^verified/);
        expectVerifiedDelivery(delivery);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    10 * MINUTES,
  );

  it(
    'Java: mvn test passes its unit and live tests, and the README examples (screening, webhook on 127.0.0.1) run',
    () => {
      const install = 'apt-get install openjdk-17-jdk-headless maven';
      // -o when Maven's cache has everything already would save its update checks; plain mvn works on a fresh machine.
      const tests = run('java', 'mvn', ['-B', 'test', '-Dsdk.excludedGroups=none'], install);
      report('java', 'mvn test', tests.output, tests.seconds, /Tests run:.*Fail|BUILD/);
      expect([tests.status, tests.output]).toEqual([
        0,
        expect.stringMatching(/Tests run: \d+.*in dev\.vigil\.sdk\.LiveGatewayTest/),
      ]);

      const file = join(SDK_DIR, 'java', 'target', 'ReadmeExample.java');
      writeFileSync(file, readmeExample('java', 'java'));
      const classpath = [
        'target/classes',
        readFileSync(join(SDK_DIR, 'java', 'target', 'classpath.txt'), 'utf8').trim(),
      ];
      const example = run('java', 'java', ['-cp', classpath.join(':'), file], install);
      expect([example.status, example.output]).toEqual([0, expect.anything()]);
      expectScreened(example.stdout);

      const webhookFile = join(SDK_DIR, 'java', 'target', 'LocalWebhook.java');
      writeFileSync(webhookFile, readmeExample('java', 'java', LOCAL_WEBHOOK));
      const delivery = run('java', 'java', ['-cp', classpath.join(':'), webhookFile], install);
      report('java', 'webhook on 127.0.0.1', delivery.output, delivery.seconds, /^verified/);
      expectVerifiedDelivery(delivery);
    },
    10 * MINUTES,
  );
});
