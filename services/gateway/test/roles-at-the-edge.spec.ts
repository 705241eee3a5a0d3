// Issue #19: every route checks the role. Viewers read; analysts screen and decide; supervisors
// also change settings; owners manage members, keys and billing. The routes and their least roles
// come from the controllers' metadata (the same the guard reads), so a route added tomorrow is
// covered, and one that forgets to name its role fails the first test here.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { MEMBER_ROLES, memberRoleAtLeast, type MemberRole } from '@vigil/proto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { gatewayRoutes, samplePath, type Route } from './route-table.js';
import { eventually, mailTextTo } from './stack.js';

jest.setTimeout(180_000);

const PASSWORD = 'roles-at-the-edge-passphrase';
const routes = gatewayRoutes();

/** What a client's user changes through the dashboard: every route but reads, under the dashboard's session. */
const mutatingDashboardRoutes = routes.filter(
  (r) =>
    r.method !== 'get' &&
    (r.credentials === 'dashboard' ||
      r.credentials === 'key-or-session' ||
      (r.credentials === undefined && r.path.startsWith('/api/'))),
);
const guarded = routes.filter((r) => r.memberRole !== undefined);
const LESSER: MemberRole[] = ['viewer', 'analyst', 'supervisor'];

describe('team roles at the gateway: each route refuses the roles below its least one', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const tokens = new Map<MemberRole, string>();

  function send(route: Pick<Route, 'method' | 'path'>, token: string) {
    const agent = http();
    return agent[route.method](samplePath(route.path))
      .set({ authorization: `Bearer ${token}` })
      .send(route.method === 'get' || route.method === 'delete' ? undefined : {});
  }

  beforeAll(async () => {
    await stack.start(['auth']);
    app = await stack.gateway();
    const owner = await stack.member(app, 'large', 'roles-owner@example.com', PASSWORD);
    tokens.set('owner', owner.token);
    for (const role of LESSER) {
      const email = `roles-${role}@example.com`;
      const invited = await http()
        .post('/api/team/invitations')
        .set({ authorization: `Bearer ${owner.token}` })
        .send({ email, member_role: role });
      expect(invited.status).toBe(201);
      const { value } = await eventually(
        () => mailTextTo(stack.schema('auth'), email),
        (text) => text !== undefined,
        10_000,
      );
      const token = /invitation\?token=([A-Za-z0-9_-]+)/.exec(value!)![1];
      const joined = await http()
        .post('/auth/v1/team-invitations/signup')
        .send({ token, full_name: role, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true });
      expect([joined.status, joined.body.user?.member_role]).toEqual([200, role]);
      tokens.set(role, joined.body.access_token);
    }
  });

  afterAll(() => stack.stop());

  it('names the least role of every mutating dashboard route', () => {
    expect(mutatingDashboardRoutes.filter((r) => !r.memberRole).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(mutatingDashboardRoutes.length).toBeGreaterThan(20);
    const roleOf = (method: Route['method'], path: string) =>
      routes.find((r) => r.method === method && r.path === path)?.memberRole;
    // The split, spot-checked: decisions, settings, members, keys, billing.
    expect({
      decide: roleOf('post', '/api/sanctions/review/:id'),
      screen: roleOf('post', '/api/screen'),
      notifications: roleOf('put', '/api/settings/notification-settings'),
      monitoringSettings: roleOf('put', '/api/monitoring/settings'),
      invite: roleOf('post', '/api/team/invitations'),
      regenerateKey: roleOf('post', '/api/settings/regenerate-api-key'),
      upgrade: roleOf('post', '/api/upgrade/upgrade'),
      billingPortal: roleOf('get', '/api/payment/portal-session'),
    }).toEqual({
      decide: 'analyst',
      screen: 'analyst',
      notifications: 'supervisor',
      monitoringSettings: 'supervisor',
      invite: 'owner',
      regenerateKey: 'owner',
      upgrade: 'owner',
      billingPortal: 'owner',
    });
  });

  describe.each(LESSER)('as %s', (role) => {
    const above = guarded.filter((r) => !memberRoleAtLeast(role, r.memberRole!));
    it.each(above.map((r) => [`${r.method.toUpperCase()} ${r.path} (${r.memberRole})`, r] as const))(
      'is refused %s with 403 ROLE_FORBIDDEN',
      async (_name, route) => {
        const res = await send(route, tokens.get(role)!);
        expect([res.status, res.body.code]).toEqual([403, 'ROLE_FORBIDDEN']);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.detail).toBe(`This action needs the ${route.memberRole} role or higher; your role is ${role}.`);
      },
    );
  });

  it('lets every role read the team and the profile', async () => {
    for (const role of MEMBER_ROLES) {
      expect([role, (await send({ method: 'get', path: '/api/team/members' }, tokens.get(role)!)).status]).toEqual([
        role,
        200,
      ]);
      expect([role, (await send({ method: 'get', path: '/api/settings/profile' }, tokens.get(role)!)).status]).toEqual([
        role,
        200,
      ]);
    }
  });
});
