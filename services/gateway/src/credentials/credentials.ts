import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { ResolvedKey, Role } from '@vigil/proto';
import type { Request } from 'express';

/**
 * What a route demands, read by the credentials guard and by the OpenAPI document,
 * so the spec cannot say something the guard does not do.
 * - public: nothing;
 * - api-key: `x-api-key` (the public API v1);
 * - dashboard: a session token; the client is the user's own, or the one `x-api-key` names, which
 *   must then be the user's (an integration's key is never needed by the web app);
 * - session: a session token;
 * - admin: a session token whose user has the admin role.
 */
export const CREDENTIALS = ['public', 'api-key', 'dashboard', 'session', 'admin'] as const;
export type CredentialsKind = (typeof CREDENTIALS)[number];

export const CREDENTIALS_METADATA = 'vigil:credentials';
/** OpenAPI security requirements per kind: the document is generated from the same decorator the guard reads. */
export const SECURITY_REQUIREMENTS: Readonly<Record<CredentialsKind, ReadonlyArray<Record<string, string[]>>>> = {
  public: [],
  'api-key': [{ apiKey: [] }],
  dashboard: [{ session: [] }, { apiKey: [], session: [] }],
  session: [{ session: [] }],
  admin: [{ session: ['admin'] }],
};

export const Credentials = (kind: CredentialsKind) =>
  applyDecorators(
    SetMetadata(CREDENTIALS_METADATA, kind),
    ...SECURITY_REQUIREMENTS[kind].map((requirement) => ApiSecurity({ ...requirement })),
  );

/** The signed-in user, as the verified access token says. */
export type SessionUser = { id: string; email: string; role: Role; clientId: string | null; sessionId: string };

export type Caller = { client?: ResolvedKey; user?: SessionUser };

type WithCaller = Request & { vigilCaller?: Caller };

export function setCaller(req: Request, caller: Caller) {
  (req as WithCaller).vigilCaller = caller;
}

export function callerOf(req: Request): Caller {
  return (req as WithCaller).vigilCaller ?? {};
}
