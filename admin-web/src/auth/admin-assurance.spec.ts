import type { Session } from '@vigil/proto';
import { needsSecondStep } from './admin-assurance.js';

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const session = (role: 'admin' | 'user', aal: string) =>
  ({ access_token: `h.${base64url({ aal })}.s`, user: { role } }) as unknown as Session;

describe('needsSecondStep', () => {
  it('asks an admin with a password-only session for the code', () => {
    expect(needsSecondStep(session('admin', 'aal1'))).toBe(true);
    expect(needsSecondStep(session('admin', 'garbled'))).toBe(true);
  });

  it('lets an admin at aal2 through, and leaves non-admins to Access Denied', () => {
    expect(needsSecondStep(session('admin', 'aal2'))).toBe(false);
    expect(needsSecondStep(session('user', 'aal1'))).toBe(false);
  });
});
