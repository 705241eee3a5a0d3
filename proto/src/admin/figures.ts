import { z } from 'zod';

/**
 * The overview's counts, each asked of the service that owns the data:
 * auth (active users), audit (security alerts), screening (searches).
 */
export const activeUsersRequestSchema = z.object({});
/** Users with at least one session that is neither revoked nor expired. */
export const activeUsersReplySchema = z.object({ activeUsers: z.number().int().nonnegative() });

export const securityAlertCountRequestSchema = z.object({
  sinceHours: z.number().int().min(1).max(24 * 90).default(24),
});
/** Security events that call for attention (failed sign-ins, rate-limit violations, suspicious activity). */
export const securityAlertCountReplySchema = z.object({
  securityAlerts: z.number().int().nonnegative(),
  sinceHours: z.number().int(),
});

export const totalSearchesRequestSchema = z.object({});
/** Every screening logged, all clients, all time. */
export const totalSearchesReplySchema = z.object({ totalSearches: z.number().int().nonnegative() });

export type ActiveUsersReply = z.infer<typeof activeUsersReplySchema>;
export type SecurityAlertCountRequest = z.input<typeof securityAlertCountRequestSchema>;
export type SecurityAlertCountReply = z.infer<typeof securityAlertCountReplySchema>;
export type TotalSearchesReply = z.infer<typeof totalSearchesReplySchema>;
