import { z } from 'zod';
import { emailAddress } from '../email.js';

/** Emails are compared trimmed and lower-cased everywhere, so one person is one account. */
export const emailSchema = z.string().trim().toLowerCase().pipe(emailAddress('Please enter a valid email address.'));

export const accessTokenSchema = z.string().min(1).max(8192);

/** What the gateway knows about the caller; used for brute-force accounting and security events. */
export const callerContextSchema = z.object({
  ip: z.string().max(100).optional(),
  userAgent: z.string().max(512).optional(),
});

/** Requests made on behalf of a signed-in user carry the bearer token the gateway received. */
export const authenticatedRequestSchema = callerContextSchema.extend({ accessToken: accessTokenSchema });

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A user's role in their client's team, lowest first: viewers read; analysts screen and decide
 * reviews; supervisors also confirm and change settings; owners manage members, keys and billing.
 * Distinct from `Role` (admin or not), which is about Vigil's own staff.
 */
export const MEMBER_ROLES = ['owner', 'supervisor', 'analyst', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const MEMBER_ROLE_RANK: Readonly<Record<MemberRole, number>> = { viewer: 0, analyst: 1, supervisor: 2, owner: 3 };

/** Whether `role` may do what `minimum` may (viewer < analyst < supervisor < owner); no role may do nothing. */
export function memberRoleAtLeast(role: MemberRole | null | undefined, minimum: MemberRole): boolean {
  return role != null && MEMBER_ROLE_RANK[role] >= MEMBER_ROLE_RANK[minimum];
}

export const ASSURANCE_LEVELS = ['aal1', 'aal2'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];

export const messageReplySchema = z.object({ message: z.string() });

export type CallerContext = z.infer<typeof callerContextSchema>;
export type AuthenticatedRequest = z.infer<typeof authenticatedRequestSchema>;
export type MessageReply = z.infer<typeof messageReplySchema>;
