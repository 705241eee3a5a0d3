import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { SERVICES_DIR, testEnv } from './stack.js';

jest.setTimeout(60_000);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const REPOSITORY = join(SERVICES_DIR, '..');

type Media = { schema?: Record<string, unknown>; example?: unknown };
type Responses = Record<string, { description?: string; content?: Record<string, Media> }>;
type Operation = { responses?: Responses; summary?: string };
type Document = { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> };

/** The async bulk routes: 200 with the results up to 1,000 names, 202 with the job to poll beyond. */
const ASYNC_BULK = ['post /api/v1/bulk-screen', 'post /api/sanctions/bulk-search'];

describe('OpenAPI success responses', () => {
  let app: INestApplication;
  let spec: Document;

  beforeAll(async () => {
    // No backend: the document is built from the controllers, and the answers checked here are the gateway's own.
    app = await createGatewayApp(
      parseConfig(envSchema, { ...testEnv, LOG_LEVEL: 'error', BULK_WORKER: 'false', NATS_REQUEST_TIMEOUT_MS: '300' }),
    );
    await app.init();
    spec = (await request(app.getHttpServer()).get('/openapi.json')).body;
  });

  afterAll(() => app?.close());

  const operations = () =>
    Object.entries(spec.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ route: `${m} ${path}`, operation: item[m]! })),
    );

  /** The documented schema of one route's answer with `status`, as application/json. */
  function schemaOf(route: string, status: number): Record<string, unknown> {
    const [method, path] = route.split(' ') as [(typeof METHODS)[number], string];
    const schema = spec.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${route} documents no JSON answer for ${status}`);
    return schema;
  }

  it('documents exactly one success response per operation, each with a schema or a non-JSON media type, and a summary', () => {
    const missing: string[] = [];
    for (const { route, operation } of operations()) {
      const responses = operation.responses ?? {};
      const successes = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      const expected = ASYNC_BULK.includes(route) ? ['200', '202'] : successes.length === 1 ? successes : ['one 2xx'];
      if (successes.sort().join() !== expected.join()) missing.push(`${route}: 2xx ${successes.join(',') || 'none'}`);
      for (const status of successes) {
        if (status === '204') continue;
        const content = Object.entries(responses[status]!.content ?? {});
        if (content.length === 0) missing.push(`${route}: ${status} has no content`);
        for (const [mediaType, media] of content)
          if (mediaType === 'application/json' && !media.schema)
            missing.push(`${route}: ${status} JSON without a schema`);
      }
      if (!operation.summary) missing.push(`${route}: no summary`);
      // The problem+json default stays beside the success.
      if (!responses.default) missing.push(`${route}: no default problem response`);
    }
    expect(missing).toEqual([]);
    expect(operations().length).toBeGreaterThan(100);
    // A reply is checked with safeParse and sent as written, so fields its schema does not name may
    // come; only a strict object (a clear candidate's summary in a screen) forbids them.
    const screen = schemaOf('post /api/v1/screen', 200);
    expect(screen).not.toHaveProperty('additionalProperties');
    expect(JSON.stringify(screen)).toContain('"additionalProperties":false');
    // The async bulk job's 202 and the live stream's media type are on the document.
    expect(schemaOf('post /api/v1/bulk-screen', 202)).toMatchObject({ required: expect.arrayContaining(['jobId']) });
    expect(Object.keys(spec.paths['/api/monitoring/stream']!.get!.responses!['200']!.content!)).toEqual([
      'text/event-stream',
    ]);
  });

  it('answers what it documents: real answers validate against their documented schemas', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const http = request(app.getHttpServer());
    const checks: Array<[route: string, url: string, status: number]> = [
      ['get /livez', '/livez', 200],
      ['get /api/plans', '/api/plans', 200],
      ['get /api/v1/plans', '/api/v1/plans', 200],
      // No service answers here: the health report is the degraded one, under the same schema.
      ['get /health', '/health', 503],
    ];
    for (const [route, url, status] of checks) {
      const res = await http.get(url);
      expect([route, res.status]).toEqual([route, status]);
      const validate = ajv.compile(schemaOf(route, status));
      expect([route, validate(res.body), validate.errors ?? null]).toEqual([route, true, null]);
    }
    // The validator does reject an answer off its schema.
    expect(ajv.compile(schemaOf('get /api/v1/plans', 200))({ plans: [{ tier: 'gold' }] })).toBe(false);
  });

  /**
   * What is wrong with the success examples of `document`: a client-facing /api/v1 answer in JSON
   * without one, or an example its own response schema rejects (with Ajv's first complaint).
   */
  function exampleProblems(document: Document): string[] {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const problems: string[] = [];
    for (const [path, item] of Object.entries(document.paths))
      for (const method of METHODS) {
        for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
          const media = response.content?.['application/json'];
          if (!/^2\d\d$/.test(status) || !media?.schema) continue;
          const route = `${method} ${path} ${status}`;
          if (media.example === undefined) {
            if (path.startsWith('/api/v1/')) problems.push(`${route}: no example`);
            continue;
          }
          const validate = ajv.compile(media.schema);
          if (!validate(media.example)) {
            const [first] = validate.errors ?? [];
            problems.push(`${route}: ${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`);
          }
        }
      }
    return problems;
  }

  it('shows a real-looking example on every /api/v1 JSON success, each valid against its own schema', () => {
    expect(exampleProblems(spec)).toEqual([]);
    const examples = operations().flatMap(({ operation }) =>
      Object.values(operation.responses ?? {}).filter((r) => r.content?.['application/json']?.example !== undefined),
    );
    expect(examples.length).toBeGreaterThanOrEqual(8);
    // A wrong example does fail: a screen answer with a status the contract does not know, and one
    // with a required field missing.
    const broken = structuredClone(spec);
    const screen = broken.paths['/api/v1/screen']!.post!.responses!['200']!.content!['application/json']!;
    screen.example = { ...(screen.example as object), status: 'maybe' };
    const { listVersions: _dropped, ...withoutVersions } = broken.paths['/api/v1/bulk-screen']!.post!.responses!['200']!
      .content!['application/json']!.example as Record<string, unknown>;
    broken.paths['/api/v1/bulk-screen']!.post!.responses!['200']!.content!['application/json']!.example =
      withoutVersions;
    delete broken.paths['/api/v1/status']!.get!.responses!['200']!.content!['application/json']!.example;
    expect(exampleProblems(broken)).toEqual([
      'post /api/v1/screen 200: /status must be equal to one of the allowed values',
      "post /api/v1/bulk-screen 200: / must have required property 'listVersions'",
      'get /api/v1/status 200: no example',
    ]);
  });

  it("passes Spectral's OpenAPI ruleset (.spectral.yaml) with no error and no warning", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(spec));
      // Spectral exits 1 on an error (its JSON report still on stdout); warnings pass, counted below.
      const { stdout } = await promisify(execFile)(
        join(REPOSITORY, 'node_modules', '.bin', 'spectral'),
        [
          'lint',
          file,
          '--ruleset',
          join(REPOSITORY, '.spectral.yaml'),
          '--format',
          'json',
          '--quiet',
          '--fail-severity',
          'error',
        ],
        { cwd: REPOSITORY, maxBuffer: 64 * 1024 * 1024 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
      const results = JSON.parse(stdout) as Array<{ code: string; severity: number; path: string[] }>;
      const errors = results.filter((r) => r.severity === 0);
      const warnings = results.filter((r) => r.severity === 1);
      process.stdout.write(`Spectral (spectral:oas): ${errors.length} errors, ${warnings.length} warnings\n`);
      expect(errors.map((r) => `${r.code} ${r.path.join('.')}`)).toEqual([]);
      // Issue #35: no warning either (a rule that does not apply is switched off in .spectral.yaml, with its reason).
      expect(warnings.map((r) => `${r.code} ${r.path.join('.')}`)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
