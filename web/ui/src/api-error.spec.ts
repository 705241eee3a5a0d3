import { errorMessage, toApiError } from './api-error.js';

describe('toApiError', () => {
  it('reads the problem+json detail and code of a gateway error', () => {
    const error = toApiError({
      status: 401,
      data: {
        type: 'about:blank',
        title: 'Invalid credentials',
        status: 401,
        detail: 'Invalid login credentials',
        code: 'INVALID_CREDENTIALS',
      },
    });
    expect(error).toEqual({ status: 401, message: 'Invalid login credentials', code: 'INVALID_CREDENTIALS' });
  });

  it('falls back to error, then message, then HTTP {status}', () => {
    expect(toApiError({ status: 400, data: { error: 'Tier cannot be empty' } }).message).toBe('Tier cannot be empty');
    expect(toApiError({ status: 400, data: { message: 'Valid tier is required' } }).message).toBe(
      'Valid tier is required',
    );
    expect(toApiError({ status: 502, data: {} }).message).toBe('HTTP 502');
  });

  it('says the server returned something that is not JSON', () => {
    expect(
      toApiError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' }, 'Bad Gateway'),
    ).toEqual({ status: 502, message: 'Server returned 502: Bad Gateway' });
  });

  it('reports no answer as status 0 and Network error', () => {
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toEqual({
      status: 0,
      message: 'Network error',
    });
  });

  it('gives the fallback for something that is not an API error', () => {
    expect(errorMessage(new Error('boom'))).toBe('An unexpected error occurred.');
    expect(errorMessage({ status: 404, message: 'Client not found' })).toBe('Client not found');
  });
});
