// Issue #15, finding 6 (gateway part): the dashboard is a plan feature (proto PLANS'
// dashboardAccess: medium and large; spec §9: starter and small have no dashboard). Every
// dashboard route, read from the route table, refuses a client whose plan lacks it, except the
// routes marked @AnyPlan that such a client needs to upgrade.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { gatewayRoutes, samplePath, type Route } from './route-table.js';

jest.setTimeout(180_000);

const PASSWORD = 'plan-limits-passphrase';
const dashboardRoutes = gatewayRoutes().filter(
  (r) => r.credentials === 'dashboard' || r.credentials === 'key-or-session',
);
const limited = dashboardRoutes.filter((r) => !r.anyPlan && !r.planFeature);
const everyPlan = dashboardRoutes.filter((r) => r.anyPlan);
// Webhook settings: the small plan has webhooks without the dashboard (spec §9), the starter plan neither.
const webhooks = dashboardRoutes.filter((r) => r.planFeature === 'webhookNotifications');

describe('dashboardAccess per plan at the gateway', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const members: Record<'starter' | 'small' | 'medium', { key: string; token: string }> = {} as never;

  function send(route: Pick<Route, 'method' | 'path'>, who: { key: string; token: string }) {
    const agent = http();
    return agent[route.method](samplePath(route.path))
      .set({ authorization: `Bearer ${who.token}`, 'x-api-key': who.key })
      .send(route.method === 'get' || route.method === 'delete' ? undefined : {});
  }

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    for (const tier of ['starter', 'small', 'medium'] as const) {
      const member = await stack.member(app, 'large', `plan-${tier}@example.com`, PASSWORD);
      await stack.setSubscription(member.id, { tier });
      members[tier] = member;
    }
  });

  afterAll(() => stack.stop());

  it('keeps the routes a client needs to upgrade, manage its billing and export its evidence open to every plan', () => {
    expect(everyPlan.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'get /api/client',
      'get /api/client/audit/screenings',
      'get /api/payment/portal-session',
      'get /api/upgrade/options',
      'get /api/upgrade/preview',
      'post /api/upgrade/upgrade',
    ]);
    expect(limited.length).toBeGreaterThan(10);
  });

  // Issue #37: a starter or small owner manages its billing in the portal and exports its evidence.
  it.each([['/api/payment/portal-session'], ['/api/client/audit/screenings']])(
    'GET %s is not refused to a starter or small client for its plan',
    async (path) => {
      for (const tier of ['starter', 'small'] as const) {
        const res = await send({ method: 'get', path }, members[tier]);
        expect([tier, res.status, res.body.code]).not.toEqual([tier, 403, 'FEATURE_NOT_IN_PLAN']);
      }
    },
  );

  describe.each(['starter', 'small'] as const)('a %s client', (tier) => {
    it.each(limited.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
      '%s answers 403 FEATURE_NOT_IN_PLAN naming the plan limit',
      async (_name, route) => {
        const res = await send(route, members[tier]);
        expect([res.status, res.body.code]).toEqual([403, 'FEATURE_NOT_IN_PLAN']);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.detail).toMatch(new RegExp(`${tier} plan does not include dashboard access`, 'i'));
        expect(res.body.detail).toMatch(/Medium and Large/);
      },
    );

    it('can still read its client profile (the upgrade page needs it)', async () => {
      const res = await send({ method: 'get', path: '/api/client' }, members[tier]);
      expect(res.status).toBe(200);
    });
  });

  it.each(webhooks.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
    '%s: webhook settings are refused to starter, not to small',
    async (_name, route) => {
      const starter = await send(route, members.starter);
      expect([starter.status, starter.body.code]).toEqual([403, 'FEATURE_NOT_IN_PLAN']);
      expect(starter.body.detail).toMatch(/Starter plan does not include webhook notifications/);
      const small = await send(route, members.small);
      expect(small.body.code).not.toBe('FEATURE_NOT_IN_PLAN');
    },
  );

  it('lets a medium client use the dashboard', async () => {
    const res = await send({ method: 'get', path: '/api/client/logs' }, members.medium);
    expect(res.status).toBe(200);
  });
});
