import { signInSchema } from './sign-in.schema.js';

function messages(input: unknown): Record<string, string | undefined> {
  const result = signInSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('signInSchema', () => {
  it('accepts an email and password, trimming the email', () => {
    expect(signInSchema.parse({ email: '  ops@vigil.example ', password: 'x', rememberMe: true })).toEqual({
      email: 'ops@vigil.example',
      password: 'x',
      rememberMe: true,
    });
  });

  it('asks for both fields when the form is empty', () => {
    expect(messages({ email: '', password: '', rememberMe: false })).toEqual({
      email: 'Email is required.',
      password: 'Password is required.',
    });
  });

  it('treats an email of spaces as missing', () => {
    expect(messages({ email: '   ', password: 'x', rememberMe: false })).toEqual({ email: 'Email is required.' });
  });

  it('rejects an email without a domain', () => {
    expect(messages({ email: 'ops@', password: 'x', rememberMe: false })).toEqual({
      email: 'Enter a valid email address.',
    });
  });
});
