import { z } from 'zod';
import { authenticatedRequestSchema, callerContextSchema, emailSchema } from './common.js';
import { sessionInfoSchema, userSchema } from './session.js';

export const PASSWORD_MIN_LENGTH = 8;
// Long enough for any passphrase, short enough that hashing it cannot be used to burn CPU.
export const PASSWORD_MAX_LENGTH = 256;

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.` });

/** Sign-up form. Unknown fields (a forged `role`, say) are dropped by the schema. */
export const signupRequestSchema = callerContextSchema
  .extend({
    full_name: z.string().trim().min(1, { message: 'Full name is required.' }).max(200),
    email: emailSchema,
    password: newPassword,
    confirm_password: z.string().max(PASSWORD_MAX_LENGTH),
    accepted_terms: z.literal(true, { message: 'You must accept the terms of service and privacy policy.' }),
    invitation_code: z.string().trim().max(200).optional(),
    /** Where the confirmation link should land (a web-app path); defaults to /login. */
    redirect_to: z.string().max(500).optional(),
  })
  .refine((value) => value.password === value.confirm_password, {
    message: 'Passwords do not match.',
    path: ['confirm_password'],
  });

export const signupReplySchema = z.object({
  message: z.string(),
  /** True only when the server granted the admin role (allow-listed email + valid invitation). */
  admin: z.boolean(),
});

export const passwordGrantSchema = callerContextSchema.extend({
  grant_type: z.literal('password'),
  email: emailSchema,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  /** Keeps the refresh token for 30 days instead of one day. */
  remember_me: z.boolean().optional(),
  /**
   * A current TOTP code of the account, sent with the password: lets its owner in while failed
   * attempts have locked the account (the session starts at aal2). Ignored while it is not locked.
   */
  mfa_code: z
    .string()
    .regex(/^\d{6}$/, { message: 'A verification code has 6 digits.' })
    .optional(),
});

export const refreshGrantSchema = callerContextSchema.extend({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1).max(200),
});

export const tokenRequestSchema = z.discriminatedUnion('grant_type', [passwordGrantSchema, refreshGrantSchema]);

export const logoutRequestSchema = authenticatedRequestSchema.extend({
  /** global: every session of the user; local: this one; others: all but this one. */
  scope: z.enum(['global', 'local', 'others']).default('local'),
});

export const recoverRequestSchema = callerContextSchema.extend({ email: emailSchema });

/** POST /auth/v1/resend: a new confirmation link for an address not yet confirmed. */
export const resendRequestSchema = callerContextSchema.extend({
  type: z.literal('signup').default('signup'),
  email: emailSchema,
});

/** One answer whatever the address: resending does not say who has an account, or whether it is confirmed. */
export const RESEND_MESSAGE =
  'If that address has an account waiting for confirmation, a new confirmation link is on its way.';
export const UNLOCK_MESSAGE = 'Your account is unlocked. You can sign in now.';

export const RECOVER_MESSAGE = 'If an account with that email exists, you will receive a password reset link.';
export const SIGNUP_MESSAGE = 'Account created! Please check your email to confirm your account.';
export const ADMIN_SIGNUP_MESSAGE = 'Admin account created! You can now sign in directly.';

export const verifyRequestSchema = z.discriminatedUnion('type', [
  callerContextSchema.extend({ type: z.literal('signup'), token: z.string().min(1).max(200) }),
  callerContextSchema.extend({ type: z.literal('recovery'), token: z.string().min(1).max(200), password: newPassword }),
  /** The emailed unlock link of a locked account: lifts the lock on its email (not on the guessing IP). */
  callerContextSchema.extend({ type: z.literal('unlock'), token: z.string().min(1).max(200) }),
]);

export const getUserRequestSchema = authenticatedRequestSchema;

export const updateUserRequestSchema = authenticatedRequestSchema
  .extend({
    full_name: z.string().trim().min(1).max(200).optional(),
    password: newPassword.optional(),
    /** Required with `password` unless the user has no password yet (Google-only account). */
    current_password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  })
  .refine((value) => value.full_name !== undefined || value.password !== undefined, {
    message: 'Nothing to update.',
    path: [],
  });

export const listSessionsRequestSchema = authenticatedRequestSchema;
export const listSessionsReplySchema = z.object({ sessions: z.array(sessionInfoSchema) });
export const revokeSessionRequestSchema = authenticatedRequestSchema.extend({ session_id: z.uuid() });

export const unlinkIdentityRequestSchema = authenticatedRequestSchema.extend({ identity_id: z.uuid() });

export const createInvitationRequestSchema = authenticatedRequestSchema.extend({
  /** How long the code stays valid; 72 hours unless told. */
  expires_in_hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
});
export const invitationReplySchema = z.object({
  id: z.uuid(),
  /** Shown once; only its hash is stored. */
  code: z.string(),
  expires_at: z.string(),
});

export const userReplySchema = userSchema;

export type SignupRequest = z.infer<typeof signupRequestSchema>;
export type SignupReply = z.infer<typeof signupReplySchema>;
export type TokenRequest = z.infer<typeof tokenRequestSchema>;
export type PasswordGrant = z.infer<typeof passwordGrantSchema>;
export type RefreshGrant = z.infer<typeof refreshGrantSchema>;
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;
export type RecoverRequest = z.infer<typeof recoverRequestSchema>;
export type VerifyRequest = z.infer<typeof verifyRequestSchema>;
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;
export type ListSessionsReply = z.infer<typeof listSessionsReplySchema>;
export type RevokeSessionRequest = z.infer<typeof revokeSessionRequestSchema>;
export type UnlinkIdentityRequest = z.infer<typeof unlinkIdentityRequestSchema>;
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;
export type InvitationReply = z.infer<typeof invitationReplySchema>;
