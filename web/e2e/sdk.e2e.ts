import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_URL } from './browser.js';

const SDK_DIR = fileURLToPath(new URL('../../sdk/typescript/', import.meta.url));

function demoApiKey(): string {
  const key = process.env.DEMO_CLIENT_API_KEY;
  if (!key)
    throw new Error('DEMO_CLIENT_API_KEY is not set: run the browser tests through infra/scripts/browser-tests.mjs');
  return key;
}

// The SDK is only worth shipping if its README works and its types describe the gateway that runs.
describe('@vigil/sdk against the running gateway', () => {
  it('was generated from the document this gateway serves', async () => {
    const live = (await (await fetch(`${GATEWAY_URL}/openapi.json`)).json()) as Record<string, unknown>;
    delete live.servers;
    const committed = JSON.parse(readFileSync(join(SDK_DIR, 'openapi.json'), 'utf8')) as Record<string, unknown>;
    // On a difference: npm run generate -w @vigil/sdk -- <gateway URL>, and commit the result.
    expect(committed).toEqual(live);
  });

  it('runs the README example, as written, with a real key', () => {
    const readme = readFileSync(join(SDK_DIR, 'README.md'), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("from '@vigil/sdk'");
    // Inside the package folder, so '@vigil/sdk' resolves to the built workspace package.
    const file = join(SDK_DIR, '.readme-example.test.mjs');
    writeFileSync(file, example!);
    try {
      const run = spawnSync(process.execPath, [file], {
        cwd: SDK_DIR,
        env: { ...process.env, NODE_OPTIONS: '', VIGIL_API_URL: GATEWAY_URL, VIGIL_API_KEY: demoApiKey() },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect([run.status, run.stderr]).toEqual([0, '']);
      const answer = JSON.parse(run.stdout) as { results: Array<{ name: string; score: number }> };
      expect(Array.isArray(answer.results)).toBe(true);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('runs the README’s webhook program: a receiver on 127.0.0.1 verifies a signed test event', () => {
    // The stack's monitoring runs in local mode (WEBHOOK_ALLOW_LOOPBACK=true, infra/scripts/browser-tests.mjs).
    const readme = readFileSync(join(SDK_DIR, 'README.md'), 'utf8');
    const section = readme.split('\n## Receiving a test webhook on 127.0.0.1\n')[1] ?? '';
    const program = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(program).toContain('verifyWebhook(secret');
    const file = join(SDK_DIR, '.readme-webhook.test.mjs');
    writeFileSync(file, program!);
    try {
      const run = spawnSync(process.execPath, [file], {
        cwd: SDK_DIR,
        env: { ...process.env, NODE_OPTIONS: '', VIGIL_API_URL: GATEWAY_URL, VIGIL_API_KEY: demoApiKey() },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(/^verified test delivery \S+$/m);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
