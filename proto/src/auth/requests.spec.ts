import { signupRequestSchema } from './requests.js';

const valid = {
  full_name: 'Ada',
  email: ' Ada@Example.COM ',
  password: 'correct horse',
  confirm_password: 'correct horse',
  accepted_terms: true,
};

describe('signupRequestSchema', () => {
  it('normalises the email and drops fields a client may not set', () => {
    const parsed = signupRequestSchema.parse({ ...valid, role: 'admin', is_admin: true });
    expect(parsed.email).toBe('ada@example.com');
    expect(parsed).not.toHaveProperty('role');
    expect(parsed).not.toHaveProperty('is_admin');
  });

  it('says "Passwords do not match." on the confirm field', () => {
    const result = signupRequestSchema.safeParse({ ...valid, confirm_password: 'something else' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['confirm_password'], message: 'Passwords do not match.' }),
    ]);
  });

  it('requires 8 characters and accepted terms', () => {
    const result = signupRequestSchema.safeParse({
      ...valid,
      password: 'short',
      confirm_password: 'short',
      accepted_terms: false,
    });
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['accepted_terms', 'password']);
  });
});
