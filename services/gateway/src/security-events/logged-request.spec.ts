import { runWithRequestId } from '@vigil/platform';
import { SECURITY_EVENT_ENDPOINT_MAX } from '@vigil/proto';
import type { Request } from 'express';
import { loggedEndpoint, loggedRequestId } from './logged-request.js';

const KEY = '0b9a696a69f63fa7d0e6f3e1a28f7d0d0ffd45c49c64878a55949a807308f143';
const requestWith = (header: string | undefined) =>
  ({ header: (name: string) => (name === 'x-request-id' ? header : undefined) }) as unknown as Request;

describe('loggedEndpoint', () => {
  it('keeps only the prefix of an API key in the path, and drops the query', () => {
    expect(loggedEndpoint(`/api/client/clients/api-key/${KEY}?x=1`)).toBe('/api/client/clients/api-key/0b9a696a…');
    expect(loggedEndpoint(`/api/client/clients/api-key/${KEY.toUpperCase()}x`)).toBe('/api/client/clients/api-key/0B9A696A…x');
    // A mistyped key is a key all the same.
    expect(loggedEndpoint(`/a/${KEY.slice(0, 40)}`)).toBe('/a/0b9a696a…');
  });

  it('leaves ids and ordinary paths alone', () => {
    const path = '/api/client/clients/7c1c1f9e-3c4e-4a8e-9a51-2f0b1c7d9e10/thresholds';
    expect(loggedEndpoint(path)).toBe(path);
  });

  it('cuts a long path to the bound the security event allows', () => {
    const endpoint = loggedEndpoint(`/api/${'z'.repeat(8_000)}`);
    expect(endpoint).toHaveLength(SECURITY_EVENT_ENDPOINT_MAX);
    expect(endpoint.endsWith('…')).toBe(true);
  });
});

describe('loggedRequestId', () => {
  it('files an authenticated caller’s event under the id it chose', () => {
    runWithRequestId('chosen-1', () => expect(loggedRequestId(requestWith('chosen-1'), true)).toBe('chosen-1'));
  });

  it('never under an id a caller without credentials chose, but under one the gateway issued', () => {
    runWithRequestId('chosen-2', () => expect(loggedRequestId(requestWith('chosen-2'), false)).toBeNull());
    runWithRequestId('bad id with spaces', () => {
      const issued = loggedRequestId(requestWith('bad id with spaces'), false);
      expect(issued).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
