import { emailSchema, PASSWORD_MAX_LENGTH, type PasswordGrant } from '@vigil/proto';
import { z } from 'zod';

// The email rule is proto's (trimmed, lower-cased, same message as the server);
// the form only adds "required" so an empty field is not called malformed.
export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Email is required.').pipe(emailSchema),
  password: z.string().min(1, 'Password is required.').max(PASSWORD_MAX_LENGTH, 'That password is too long.'),
  rememberMe: z.boolean(),
});

/** What the form holds while the user types. */
export type SignInInput = z.input<typeof signInSchema>;
/** The form once valid. */
export type SignInValues = z.output<typeof signInSchema>;

/** The auth service's password grant; the gateway adds the caller's ip and user agent. */
export function toPasswordGrant(values: SignInValues): PasswordGrant {
  return { grant_type: 'password', email: values.email, password: values.password, remember_me: values.rememberMe };
}
