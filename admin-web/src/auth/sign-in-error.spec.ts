import { describeSignInError } from './sign-in-error.js';

describe('describeSignInError', () => {
  it('uses the spec wording for network failures and timeouts', () => {
    expect(describeSignInError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'Network error. Please check your connection and try again.',
    );
    expect(describeSignInError({ status: 'TIMEOUT_ERROR', error: 'AbortError' })).toBe(
      'Request timed out. Please try again.',
    );
  });

  it("shows the gateway's problem detail", () => {
    const problem = {
      type: 'about:blank',
      title: 'Authentication required',
      status: 401,
      detail: 'Wrong email or password.',
      code: 'UNAUTHENTICATED',
    };
    expect(describeSignInError({ status: 401, data: problem })).toBe('Wrong email or password.');
  });

  it('falls back to the title, then to the code, when the detail is empty', () => {
    expect(describeSignInError({ status: 429, data: { title: 'Too many requests', detail: '' } })).toBe(
      'Too many requests',
    );
    expect(describeSignInError({ status: 403, data: { code: 'FORBIDDEN' } })).toBe('Forbidden');
  });

  it('says plainly when the gateway has no sign-in route yet', () => {
    expect(
      describeSignInError({
        status: 404,
        data: { title: 'No such route', detail: 'No route for POST', code: 'ROUTE_NOT_FOUND' },
      }),
    ).toBe('Sign-in is not available on this gateway yet.');
  });

  it('explains a bare 401 and anything unexpected', () => {
    expect(describeSignInError({ status: 401, data: null })).toBe('The email or password is incorrect.');
    expect(describeSignInError({ status: 502, data: '<html>' })).toBe('Sign-in failed (HTTP 502). Please try again.');
    expect(describeSignInError(new Error('boom'))).toBe('An unexpected error occurred.');
  });
});
