import { describeHealthError } from './request-error.js';

describe('describeHealthError', () => {
  it('is silent when there is no error', () => {
    expect(describeHealthError(undefined)).toBeUndefined();
  });

  it('tells a network failure apart from a bad reply', () => {
    expect(describeHealthError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'Could not reach the gateway. Check your connection and try again.',
    );
    expect(
      describeHealthError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' }),
    ).toBe('The gateway answered 502 with a body that is not a health report.');
    expect(describeHealthError({ status: 500, data: { title: 'Internal error' } })).toBe(
      'The gateway answered 500 with a body that is not a health report.',
    );
  });

  it('has a fallback for thrown exceptions', () => {
    expect(describeHealthError({ name: 'Error', message: 'boom' })).toBe('The health check failed unexpectedly.');
  });
});
