import { z } from 'zod';
import { ASSURANCE_LEVELS, MEMBER_ROLES, ROLES } from './common.js';

export const factorSchema = z.object({
  id: z.uuid(),
  factor_type: z.enum(['totp', 'phone']),
  status: z.enum(['verified', 'unverified']),
  friendly_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const identitySchema = z.object({
  id: z.uuid(),
  provider: z.enum(['email', 'google']),
  /** The provider's subject for this person (for email: the user id). */
  identity_id: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
});

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  role: z.enum(ROLES),
  client_id: z.uuid().nullable(),
  /** The user's role in their client's team; null without a client. */
  member_role: z.enum(MEMBER_ROLES).nullable(),
  email_confirmed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  identities: z.array(identitySchema),
  factors: z.array(factorSchema),
});

/** The Session shape the web app reads (spec: access_token … user). */
export const sessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** Unix seconds at which the access token expires. */
  expires_at: z.number().int(),
  expires_in: z.number().int(),
  token_type: z.literal('bearer'),
  user: userSchema,
  /** Only after a provider sign-in: the provider's own tokens, never stored by Vigil. */
  provider_token: z.string().optional(),
  provider_refresh_token: z.string().optional(),
});

/** The claims of a Vigil access token (JWT). */
export const accessTokenClaimsSchema = z.object({
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  sub: z.uuid(),
  exp: z.number(),
  iat: z.number(),
  jti: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  client_id: z.uuid().nullable(),
  /**
   * The user's role in that client's team when the token was issued (null without a client, and
   * in tokens issued before teams existed: those get no team rights until refreshed).
   */
  member_role: z.enum(MEMBER_ROLES).nullable().default(null),
  /** The session (refresh-token family) the token belongs to. */
  sid: z.uuid(),
  aal: z.enum(ASSURANCE_LEVELS),
  amr: z.array(z.string()),
  /**
   * The user had a verified second factor when the token was issued: then only an aal2 token
   * is accepted (the rule of `assuranceSatisfied`). Verifiers that check tokens locally (the
   * gateway) apply it without asking auth on every request.
   */
  mfa_enrolled: z.boolean(),
});

/** Auth's rule, shared by every verifier: once a factor is verified, the session must have completed it. */
export function assuranceSatisfied(claims: Pick<AccessTokenClaims, 'aal' | 'mfa_enrolled'>): boolean {
  return !claims.mfa_enrolled || claims.aal === 'aal2';
}

/**
 * What an administrator's session still lacks before any admin route (issue #33): every admin
 * route needs aal2, so a password-only admin is told to verify a code (`MFA_REQUIRED`) or, with no
 * verified factor yet, to enrol one first (`MFA_ENROLMENT_REQUIRED`). Null once the session is aal2.
 * The gateway's guard and auth's admin handlers both decide by this one rule.
 */
export function adminAssuranceProblem(
  claims: Pick<AccessTokenClaims, 'aal' | 'mfa_enrolled'>,
): 'MFA_REQUIRED' | 'MFA_ENROLMENT_REQUIRED' | null {
  if (claims.aal === 'aal2') return null;
  return claims.mfa_enrolled ? 'MFA_REQUIRED' : 'MFA_ENROLMENT_REQUIRED';
}

/** One signed-in device or browser, as listed to its owner. */
export const sessionInfoSchema = z.object({
  id: z.uuid(),
  created_at: z.string(),
  refreshed_at: z.string().nullable(),
  expires_at: z.string(),
  aal: z.enum(ASSURANCE_LEVELS),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  remember_me: z.boolean(),
  current: z.boolean(),
});

export type Factor = z.infer<typeof factorSchema>;
export type Identity = z.infer<typeof identitySchema>;
export type User = z.infer<typeof userSchema>;
export type Session = z.infer<typeof sessionSchema>;
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
