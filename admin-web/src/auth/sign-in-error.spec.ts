import { toApiError } from '@vigil/ui';
import { describeSignInError } from './sign-in-error.js';

describe('describeSignInError', () => {
  it('uses the spec wording for network failures and timeouts', () => {
    expect(describeSignInError(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }))).toBe(
      'Network error. Please check your connection and try again.',
    );
    expect(describeSignInError(toApiError({ status: 'TIMEOUT_ERROR', error: 'AbortError' }))).toBe(
      'Request timed out. Please try again.',
    );
  });

  it("shows the gateway's problem detail, then its title", () => {
    const problem = {
      type: 'about:blank',
      title: 'Authentication required',
      status: 401,
      detail: 'Wrong email or password.',
      code: 'UNAUTHENTICATED',
    };
    expect(describeSignInError(toApiError({ status: 401, data: problem }))).toBe('Wrong email or password.');
  });

  it('says plainly when the gateway has no sign-in route yet', () => {
    const data = { title: 'No such route', detail: 'No route for POST', code: 'ROUTE_NOT_FOUND' };
    expect(describeSignInError(toApiError({ status: 404, data }))).toBe(
      'Sign-in is not available on this gateway yet.',
    );
  });

  it('explains a bare 401, a 429 and anything unexpected', () => {
    expect(describeSignInError(toApiError({ status: 401, data: null }))).toBe('The email or password is incorrect.');
    expect(describeSignInError(toApiError({ status: 429, data: null }))).toBe(
      'Too many sign-in attempts. Please wait a moment and try again.',
    );
    expect(
      describeSignInError(
        toApiError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' }, 'Bad Gateway'),
      ),
    ).toBe('Sign-in failed (HTTP 502). Please try again.');
    expect(describeSignInError(new Error('boom'))).toBe('An unexpected error occurred.');
  });
});
