import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { AssuranceLevel, MemberRole, ResolvedKey, Role } from '@vigil/proto';
import type { Request } from 'express';

/**
 * What a route demands, read by the credentials guard and by the OpenAPI document,
 * so the spec cannot say something the guard does not do.
 * - public: nothing;
 * - api-key: `x-api-key` (the public API v1);
 * - dashboard: a session token; the client is the user's own, or the one `x-api-key` names, which
 *   must then be the user's (an integration's key is never needed by the web app);
 * - key-or-session: what a bank's server holds or what the dashboard holds: `x-api-key` alone (the
 *   key's client; its tier decides, team roles do not apply to a key), or a request with a session
 *   token, judged in full as `dashboard` (roles included);
 * - session: a session token;
 * - admin: a session token whose user has the admin role.
 */
export const CREDENTIALS = ['public', 'api-key', 'dashboard', 'key-or-session', 'session', 'admin'] as const;
export type CredentialsKind = (typeof CREDENTIALS)[number];

export const CREDENTIALS_METADATA = 'vigil:credentials';
/** OpenAPI security requirements per kind: the document is generated from the same decorator the guard reads. */
export const SECURITY_REQUIREMENTS: Readonly<Record<CredentialsKind, ReadonlyArray<Record<string, string[]>>>> = {
  public: [],
  'api-key': [{ apiKey: [] }],
  dashboard: [{ session: [] }, { apiKey: [], session: [] }],
  // The session first: without either, the answer is the session's 401 UNAUTHENTICATED.
  'key-or-session': [{ session: [] }, { apiKey: [] }, { apiKey: [], session: [] }],
  session: [{ session: [] }],
  // Scopes belong to OAuth 2 schemes: an administrator's session is a scheme of its own.
  admin: [{ adminSession: [] }],
};

export const Credentials = (kind: CredentialsKind) =>
  applyDecorators(
    SetMetadata(CREDENTIALS_METADATA, kind),
    ...SECURITY_REQUIREMENTS[kind].map((requirement) => ApiSecurity({ ...requirement })),
  );

export const ANY_PLAN_METADATA = 'vigil:any-plan';
/** The OpenAPI extension marking a dashboard operation every plan may use. */
export const ANY_PLAN_EXTENSION = 'x-vigil-any-plan';
/**
 * A dashboard route every plan may use although the plan lacks `dashboardAccess` (proto PLANS):
 * what a starter or small client needs to see its profile, upgrade, manage its billing in the
 * portal and export its screening evidence. Every other dashboard
 * route is refused to such a client by the credentials guard.
 */
export const AnyPlan = () =>
  applyDecorators(SetMetadata(ANY_PLAN_METADATA, true), ApiExtension(ANY_PLAN_EXTENSION, true));

export const PLAN_FEATURE_METADATA = 'vigil:plan-feature';
/** The OpenAPI extension naming the plan feature an operation needs beyond the dashboard. */
export const PLAN_FEATURE_EXTENSION = 'x-vigil-plan-feature';
/** The plan features (proto Plan's booleans) a dashboard route can require. */
export type PlanFeature = 'dashboardAccess' | 'webhookNotifications' | 'realTimeUpdates' | 'webSocketAccess';
/**
 * A dashboard (or key-or-session) route that needs another plan feature than `dashboardAccess` (the
 * default of every such route): e.g. webhook settings, which the small plan includes without the
 * dashboard. A key alone is held to the same feature as a session.
 */
export const RequiresPlan = (feature: PlanFeature) =>
  applyDecorators(SetMetadata(PLAN_FEATURE_METADATA, feature), ApiExtension(PLAN_FEATURE_EXTENSION, feature));

export const MEMBER_ROLE_METADATA = 'vigil:member-role';
/** The OpenAPI extension naming the least team role an operation needs. */
export const MEMBER_ROLE_EXTENSION = 'x-vigil-member-role';
/**
 * The least role in the client's team (viewer < analyst < supervisor < owner) a session route
 * needs; anyone less is refused with 403 ROLE_FORBIDDEN by the credentials guard, from the role
 * in the access token (a change reaches the gateway as auth.v1.member-changed). On a route that
 * forwards the bearer token to auth (no @Credentials), the guard checks a token that names a
 * client the same way, and auth applies the same least role to the live membership.
 */
export const RequiresMemberRole = (minimum: MemberRole) =>
  applyDecorators(SetMetadata(MEMBER_ROLE_METADATA, minimum), ApiExtension(MEMBER_ROLE_EXTENSION, minimum));

/** The signed-in user, as the verified access token says. */
export type SessionUser = {
  id: string;
  email: string;
  role: Role;
  clientId: string | null;
  /** The user's role in that client's team; null without a client. */
  memberRole: MemberRole | null;
  sessionId: string;
  aal: AssuranceLevel;
  /** A verified second factor existed when the token was issued: only aal2 will do. */
  mfaEnrolled: boolean;
};

/** `keyHash`: the SHA-256 of the key that alone authenticated the request (no session). */
export type Caller = { client?: ResolvedKey; user?: SessionUser; keyHash?: string };

type WithCaller = Request & { vigilCaller?: Caller };

export function setCaller(req: Request, caller: Caller) {
  (req as WithCaller).vigilCaller = caller;
}

export function callerOf(req: Request): Caller {
  return (req as WithCaller).vigilCaller ?? {};
}
