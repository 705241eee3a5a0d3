// The gateway's route table, read from the same Nest metadata the router and the credentials
// guard read, so a test generated from it covers a route added tomorrow without being edited.
import { RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { parseConfig } from '@vigil/platform';
import type { MemberRole } from '@vigil/proto';
import { AppModule } from '../src/app.module.js';
import {
  ANY_PLAN_METADATA,
  CREDENTIALS_METADATA,
  MEMBER_ROLE_METADATA,
  PLAN_FEATURE_METADATA,
  type CredentialsKind,
} from '../src/credentials/credentials.js';
import { envSchema } from '../src/env.js';
import { DEVELOPMENT_ONLY_METADATA } from '../src/openapi/development-only.js';
import { testEnv } from './stack.js';

export type Route = {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** Express syntax, e.g. /api/client/lists/:id/entries. */
  path: string;
  /** What @Credentials says; undefined for controllers that forward the bearer token to auth. */
  credentials: CredentialsKind | undefined;
  /** @AnyPlan: a dashboard route every tier may use (upgrading, the client's own profile). */
  anyPlan: boolean;
  /** @RequiresPlan: the plan feature a dashboard route needs instead of dashboardAccess. */
  planFeature: string | undefined;
  /** @RequiresMemberRole: the least role in the client's team the route needs. */
  memberRole: MemberRole | undefined;
  /** @DevelopmentOnly: served for `npm start` and tests, never in the public OpenAPI document. */
  developmentOnly: boolean;
  controller: string;
};

type ModuleLike = DynamicModule | Type<unknown>;

function controllersOf(module: ModuleLike, seen = new Set<unknown>()): Array<Type<unknown>> {
  if (seen.has(module)) return [];
  seen.add(module);
  const dynamic = 'module' in module ? module : undefined;
  const type = (dynamic?.module ?? module) as Type<unknown>;
  const declared = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) ?? []) as Array<Type<unknown>>;
  const imports = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) ?? []) as ModuleLike[]),
    ...((dynamic?.imports ?? []) as ModuleLike[]),
  ];
  return [
    ...declared,
    ...((dynamic?.controllers ?? []) as Array<Type<unknown>>),
    ...imports.filter(Boolean).flatMap((m) => controllersOf(m, seen)),
  ];
}

const join = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

/** Every HTTP route of the gateway app, with the credentials its guard demands. */
export function gatewayRoutes(): Route[] {
  const config = parseConfig(envSchema, { ...testEnv, LOG_LEVEL: 'error' });
  const routes: Route[] = [];
  for (const controller of new Set(controllersOf(AppModule.forRoot(config)))) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const classKind = Reflect.getMetadata(CREDENTIALS_METADATA, controller) as CredentialsKind | undefined;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as object | undefined;
      if (typeof handler !== 'function' || name === 'constructor') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (method === undefined || path === undefined) continue;
      const credentials =
        (Reflect.getMetadata(CREDENTIALS_METADATA, handler) as CredentialsKind | undefined) ?? classKind;
      for (const one of Array.isArray(path) ? path : [path]) {
        routes.push({
          method: RequestMethod[method].toLowerCase() as Route['method'],
          path: join(base, one),
          credentials,
          anyPlan: Reflect.getMetadata(ANY_PLAN_METADATA, handler) === true,
          planFeature: Reflect.getMetadata(PLAN_FEATURE_METADATA, handler) as string | undefined,
          memberRole: Reflect.getMetadata(MEMBER_ROLE_METADATA, handler) as MemberRole | undefined,
          developmentOnly: Reflect.getMetadata(DEVELOPMENT_ONLY_METADATA, handler) === true,
          controller: controller.name,
        });
      }
    }
  }
  return routes;
}

/** The route with every `:param` filled with a well-formed sample. */
export function samplePath(path: string, sample = '00000000-0000-4000-8000-000000000000'): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => (name === 'email' ? 'someone@example.com' : sample));
}
