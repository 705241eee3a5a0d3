import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parseConfig } from '@vigil/platform';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { gatewayRoutes } from './route-table.js';
import { testEnv } from './stack.js';

jest.setTimeout(60_000);

type Layer = { route?: { path: string; methods: Record<string, boolean> } };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

describe('OpenAPI document', () => {
  let app: INestApplication;
  let spec: {
    openapi: string;
    paths: Record<
      string,
      Record<string, { security?: Array<Record<string, string[]>>; operationId?: string; responses?: object }>
    >;
    components: { securitySchemes: object };
  };

  beforeAll(async () => {
    // No backend is needed: every check here is answered by the gateway itself.
    app = await createGatewayApp(
      parseConfig(envSchema, {
        ...testEnv,
        LOG_LEVEL: 'error',
        BULK_WORKER: 'false',
        NATS_REQUEST_TIMEOUT_MS: '300',
        // The web app's dev proxy on loopback is the hop whose X-Forwarded-* headers are believed.
        TRUSTED_PROXIES: 'loopback',
      }),
    );
    await app.init();
    const res = await request(app.getHttpServer()).get('/openapi.json');
    expect(res.status).toBe(200);
    spec = res.body;
  });

  afterAll(() => app?.close());

  /** Every (method, path) the Express router would dispatch to a controller, in OpenAPI path syntax. */
  function routerRoutes(): string[] {
    const express = app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
    const routes: string[] = [];
    for (const layer of express.router.stack) {
      // The documentation's own routes (Swagger UI, the document itself) are not API, and
      // development-only routes (the dev mailbox) stay out of the public document.
      if (!layer.route || /^\/(docs|openapi\.|auth\/v1\/dev\/)/.test(layer.route.path)) continue;
      const path = layer.route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const method of Object.keys(layer.route.methods))
        if (METHODS.includes(method as never)) routes.push(`${method} ${path}`);
    }
    return routes;
  }

  const operations = () =>
    Object.entries(spec.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ method: m, path, operation: item[m]! })),
    );

  it('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(spec as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does reject a document that is not valid.
    expect(
      (
        await new Validator().validate({ openapi: '3.1.0', info: { title: 'x' } } as Parameters<
          Validator['validate']
        >[0])
      ).valid,
    ).toBe(false);
  });

  it('is OpenAPI 3.1 with the three credential schemes, unique operation ids and a problem response everywhere', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.components.securitySchemes).sort()).toEqual(['adminSession', 'apiKey', 'session']);
    const ids = operations().map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { operation } of operations()) expect(operation.responses).toHaveProperty('default');
    const { paths } = spec;
    expect(paths['/api/v1/screen']!.post!.security).toEqual([{ apiKey: [] }]);
    // Dashboard routes: the session alone, or the session with the client's own key.
    const dashboard = [{ session: [] }, { apiKey: [], session: [] }];
    expect(paths['/api/screen']!.post!.security).toEqual(dashboard);
    expect(paths['/api/v1/lists']!.get!.security).toEqual([{ apiKey: [] }]);
    expect(paths['/api/lists']!.get!.security).toEqual([]);
    // An administrator's session is a scheme of its own: scopes are for OAuth 2 schemes only.
    expect(paths['/api/client/admin/lists']!.get!.security).toEqual([{ adminSession: [] }]);
    for (const [path, method] of [
      ['/api/client/logs', 'get'],
      ['/api/client/sanction-alerts', 'get'],
      ['/api/sanctions/review', 'get'],
      ['/api/sanctions/review/{id}', 'post'],
      ['/api/client/lists', 'get'],
      ['/api/client/lists/download/{id}', 'get'],
      ['/api/client/lists/{id}/entries', 'get'],
      ['/api/client-lists/upload-csv', 'post'],
      ['/api/client-lists/{id}', 'delete'],
    ] as const)
      expect([path, paths[path]?.[method]?.security]).toEqual([path, dashboard]);
    // Webhooks, the stream and monitoring: also the key alone (a bank's server).
    const keyOrSession = [{ session: [] }, { apiKey: [] }, { apiKey: [], session: [] }];
    for (const [path, method] of [
      ['/api/monitoring/webhooks', 'post'],
      ['/api/monitoring/webhooks/{id}/test', 'post'],
      ['/api/monitoring/stream', 'get'],
      ['/api/monitoring/entities', 'get'],
    ] as const)
      expect([path, paths[path]?.[method]?.security]).toEqual([path, keyOrSession]);
  });

  it('lists every route of the router but the development-only ones, and nothing the router does not serve', () => {
    const documented = operations()
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    const developmentOnly = new Set(
      gatewayRoutes()
        .filter((r) => r.developmentOnly)
        .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    expect([...developmentOnly]).toEqual(['get /auth/v1/dev/mailbox']);
    expect(documented).toEqual([...new Set(routerRoutes())].filter((r) => !developmentOnly.has(r)).sort());
    expect(documented.length).toBeGreaterThan(30);
    expect(Object.keys(spec.paths).filter((path) => path.includes('mailbox'))).toEqual([]);
  });

  it('keeps development-only routes (the dev mailbox) out of the public document', () => {
    expect(Object.keys(spec.paths).filter((path) => /\/dev\/|mailbox/.test(path))).toEqual([]);
  });

  it('refuses every operation that requires credentials when they are missing, with the code its scheme implies', async () => {
    const http = request(app.getHttpServer());
    let checked = 0;
    for (const { method, path, operation } of operations()) {
      const security = operation.security ?? [];
      const url = path.replace(/\{[^}]+\}/g, SAMPLE_ID);
      const res = await http[method](url).send({});
      if (security.length === 0) {
        expect([method, path, res.body.code]).not.toEqual([
          method,
          path,
          expect.stringMatching(/^(UNAUTHENTICATED|INVALID_API_KEY)$/),
        ]);
        continue;
      }
      checked++;
      expect([method, path, res.status]).toEqual([method, path, 401]);
      const schemes = Object.keys(security[0]!);
      // A route needing the session token checks it first; a key-only route reports the key.
      expect([method, path, res.body.code]).toEqual([
        method,
        path,
        schemes.includes('session') || schemes.includes('adminSession') ? 'UNAUTHENTICATED' : 'INVALID_API_KEY',
      ]);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('names the gateway, as the caller reached it, in servers (the Docs page shows it as the base URL)', async () => {
    const direct = await request(app.getHttpServer()).get('/openapi.json').set('host', 'api.vigil.example');
    expect(direct.body.servers).toEqual([{ url: 'http://api.vigil.example' }]);
    // Through the web app's proxy (changeOrigin, xfwd): the gateway's host, not the web host it was forwarded from.
    const proxied = await request(app.getHttpServer())
      .get('/openapi.json')
      .set('host', '127.0.0.1:8080')
      .set('x-forwarded-host', '127.0.0.1:3000')
      .set('x-forwarded-proto', 'https');
    expect(proxied.body.servers).toEqual([{ url: 'https://127.0.0.1:8080' }]);
    expect(Object.keys(proxied.body.paths)).toEqual(Object.keys(spec.paths));
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(app.getHttpServer()).get('/docs');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger/i);
  });
});
