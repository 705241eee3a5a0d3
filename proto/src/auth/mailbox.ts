import { z } from 'zod';

/** A message held by the development mailbox (MAIL_TRANSPORT=mailbox), read by /dev/mailbox and tests. */
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
  to: z.string().trim().toLowerCase().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const mailboxListReplySchema = z.object({ messages: z.array(mailboxMessageSchema) });

export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;
export type MailboxListRequest = z.infer<typeof mailboxListRequestSchema>;
export type MailboxListReply = z.infer<typeof mailboxListReplySchema>;
