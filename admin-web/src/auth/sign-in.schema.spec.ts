import { passwordGrantSchema } from '@vigil/proto';
import { signInSchema, toPasswordGrant } from './sign-in.schema.js';

function messages(input: unknown): Record<string, string | undefined> {
  const result = signInSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('signInSchema', () => {
  it('accepts an email and password, normalising the email as the server does', () => {
    expect(signInSchema.parse({ email: '  Ops@Vigil.example ', password: 'x', rememberMe: true })).toEqual({
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
      email: 'Please enter a valid email address.',
    });
  });
});

describe('toPasswordGrant', () => {
  it('builds a request the auth contract accepts', () => {
    const grant = toPasswordGrant(
      signInSchema.parse({ email: 'ops@vigil.example', password: 'pw', rememberMe: false }),
    );
    expect(grant).toEqual({ grant_type: 'password', email: 'ops@vigil.example', password: 'pw', remember_me: false });
    expect(passwordGrantSchema.safeParse(grant).success).toBe(true);
  });
});
