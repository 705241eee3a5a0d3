import { z } from 'zod';
import { authenticatedRequestSchema } from './common.js';
import { sessionSchema } from './session.js';

export const enrollFactorRequestSchema = authenticatedRequestSchema.extend({
  factor_type: z.literal('totp').default('totp'),
  friendly_name: z.string().trim().min(1).max(100).optional(),
});

/** Answered once, at enrolment: the secret is never returned again. */
export const enrollFactorReplySchema = z.object({
  id: z.uuid(),
  type: z.literal('totp'),
  friendly_name: z.string().nullable(),
  totp: z.object({
    /** otpauth://totp/… URI for authenticator apps. */
    uri: z.string(),
    secret: z.string(),
    /** data:image/svg+xml;… QR code of `uri`. */
    qr_code: z.string(),
  }),
});

export const challengeFactorRequestSchema = authenticatedRequestSchema.extend({ factor_id: z.uuid() });
export const challengeReplySchema = z.object({ id: z.uuid(), expires_at: z.number().int() });

const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'Enter the 6-digit code from your authenticator app.' });
const recoveryCode = z.string().trim().min(8).max(64);

export const verifyFactorRequestSchema = authenticatedRequestSchema
  .extend({
    factor_id: z.uuid(),
    challenge_id: z.uuid(),
    code: totpCode.optional(),
    /** Instead of a code from the app, one of the recovery codes (each works once). */
    recovery_code: recoveryCode.optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recovery_code === undefined), {
    message: 'Give either code or recovery_code.',
    path: ['code'],
  });

/** A session raised to aal2; the first verification of a factor also answers its recovery codes, once. */
export const verifyFactorReplySchema = sessionSchema.extend({ recovery_codes: z.array(z.string()).optional() });

export const unenrollFactorRequestSchema = authenticatedRequestSchema.extend({ factor_id: z.uuid() });

export type EnrollFactorRequest = z.infer<typeof enrollFactorRequestSchema>;
export type EnrollFactorReply = z.infer<typeof enrollFactorReplySchema>;
export type ChallengeFactorRequest = z.infer<typeof challengeFactorRequestSchema>;
export type ChallengeReply = z.infer<typeof challengeReplySchema>;
export type VerifyFactorRequest = z.infer<typeof verifyFactorRequestSchema>;
export type VerifyFactorReply = z.infer<typeof verifyFactorReplySchema>;
export type UnenrollFactorRequest = z.infer<typeof unenrollFactorRequestSchema>;
