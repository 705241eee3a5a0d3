import { z } from 'zod';
import { accessTokenSchema } from './common.js';

/**
 * A message held by the development mailbox (MAIL_TRANSPORT=mailbox). Listed only by a
 * development stack (NODE_ENV not production and VIGIL_DEV_STACK set) to an administrator.
 */
export const mailboxMessageSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  created_at: z.string(),
});

export const mailboxListRequestSchema = z.object({
  /** An administrator's session; absent, the answer is 401 (or 404 where the mailbox is off). */
  accessToken: accessTokenSchema.optional(),
  to: z.string().trim().toLowerCase().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const mailboxListReplySchema = z.object({ messages: z.array(mailboxMessageSchema) });

export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;
export type MailboxListRequest = z.infer<typeof mailboxListRequestSchema>;
export type MailboxListReply = z.infer<typeof mailboxListReplySchema>;
