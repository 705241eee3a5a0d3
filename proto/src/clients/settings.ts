import { z } from 'zod';
import { authenticatedRequestSchema } from '../auth/common.js';
import { apiKeyStatusSchema, clientSchema } from './clients.js';

export const notificationSettingsSchema = z.object({
  email_alerts: z.boolean(),
  quota_warnings: z.boolean(),
  payment_failures: z.boolean(),
  security_alerts: z.boolean(),
  weekly_reports: z.boolean(),
  monthly_reports: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<NotificationSettings> = Object.freeze({
  email_alerts: true,
  quota_warnings: true,
  payment_failures: true,
  security_alerts: true,
  weekly_reports: false,
  monthly_reports: true,
});

/** Every settings request acts on the caller's own client, taken from the token, never from the body. */
export const settingsRequestSchema = authenticatedRequestSchema;

export const updateProfileRequestSchema = authenticatedRequestSchema.extend({
  client_name: z.string().trim().min(1, { message: 'Client name is required.' }).max(200),
  contact_email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Please enter a valid email address.' })),
});

export const updateNotificationsRequestSchema = authenticatedRequestSchema.extend(
  notificationSettingsSchema.partial().shape,
);

export const accountSummarySchema = z.object({
  client: clientSchema,
  user: z.object({ id: z.uuid(), email: z.string(), full_name: z.string().nullable(), created_at: z.string() }),
  usage_percent: z.number().int(),
  api_key: apiKeyStatusSchema,
  notification_settings: notificationSettingsSchema,
});

export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
export type UpdateNotificationsRequest = z.infer<typeof updateNotificationsRequestSchema>;
export type AccountSummary = z.infer<typeof accountSummarySchema>;
