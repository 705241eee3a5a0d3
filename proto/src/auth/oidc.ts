import { z } from 'zod';
import { accessTokenSchema, callerContextSchema } from './common.js';

export const OIDC_PROVIDERS = ['google'] as const;
export type OidcProvider = (typeof OIDC_PROVIDERS)[number];

export const oidcStartRequestSchema = callerContextSchema.extend({
  provider: z.enum(OIDC_PROVIDERS),
  remember_me: z.boolean().optional(),
  /** Signed in already: link the provider identity to this user instead of signing in as whoever it belongs to. */
  accessToken: accessTokenSchema.optional(),
});
export const oidcStartReplySchema = z.object({ url: z.url() });

/** The query the provider sent to the web app's /auth/callback, forwarded as is. */
export const oidcCallbackRequestSchema = callerContextSchema.extend({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(200),
  iss: z.string().max(500).optional(),
  scope: z.string().max(2000).optional(),
});

export type OidcStartRequest = z.infer<typeof oidcStartRequestSchema>;
export type OidcStartReply = z.infer<typeof oidcStartReplySchema>;
export type OidcCallbackRequest = z.infer<typeof oidcCallbackRequestSchema>;
