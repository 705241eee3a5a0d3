import { z } from 'zod';

export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Email is required.').pipe(z.email('Enter a valid email address.')),
  password: z.string().min(1, 'Password is required.'),
  rememberMe: z.boolean(),
});

/** What the form holds while the user types. */
export type SignInInput = z.input<typeof signInSchema>;
/** What is sent once the form is valid (email trimmed). */
export type SignInRequest = z.output<typeof signInSchema>;
