import { emailSchema, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@vigil/proto';
import { z } from 'zod';

/** The company domain whose sign-ups take the admin path; the auth service checks it again, with the allow-list. */
export const ADMIN_EMAIL_DOMAIN = (import.meta.env.VITE_ADMIN_EMAIL_DOMAIN ?? 'vigil.dev').toLowerCase();

export function isCompanyEmail(email: string, domain = ADMIN_EMAIL_DOMAIN): boolean {
  return email.trim().toLowerCase().endsWith(`@${domain}`);
}

export const signInFormSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { message: 'Please enter your password.' }).max(PASSWORD_MAX_LENGTH),
  remember_me: z.boolean(),
});
export type SignInForm = z.infer<typeof signInFormSchema>;

/** The same rules as the proto's sign-up schema, in the form's own shape (the terms box starts unticked). */
export const signUpFormSchema = z
  .object({
    full_name: z.string().trim().min(1, { message: 'Full name is required.' }).max(200),
    email: emailSchema,
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
      .max(PASSWORD_MAX_LENGTH),
    confirm_password: z.string().min(1, { message: 'Please confirm your password.' }),
    invitation_code: z.string().trim().max(200).optional(),
    accepted_terms: z.boolean().refine((v) => v, { message: 'You must accept the terms of service and privacy policy.' }),
  })
  .refine((value) => value.password === value.confirm_password, {
    message: 'Passwords do not match.',
    path: ['confirm_password'],
  });
export type SignUpForm = z.input<typeof signUpFormSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordForm = z.input<typeof forgotPasswordSchema>;

export const newPasswordSchema = z
  .object({
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` })
      .max(PASSWORD_MAX_LENGTH),
    confirm_password: z.string(),
  })
  .refine((value) => value.password === value.confirm_password, { message: 'Passwords do not match.', path: ['confirm_password'] });
export type NewPasswordForm = z.input<typeof newPasswordSchema>;
