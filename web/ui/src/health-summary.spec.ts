import type { HealthResponse } from '@vigil/proto';
import { formatLatency, isHealthResponse, serviceRows, summarizeHealth } from './health-summary.js';

const allUp: HealthResponse = {
  status: 'ok',
  version: '0.1.0',
  services: {
    gateway: { status: 'up', latencyMs: 0.4 },
    auth: { status: 'up', latencyMs: 3 },
    screening: { status: 'up', latencyMs: 4 },
    monitoring: { status: 'up', latencyMs: 2 },
    billing: { status: 'up', latencyMs: 5 },
    audit: { status: 'up', latencyMs: 2.6 },
  },
};

function withDown(...names: (keyof HealthResponse['services'])[]): HealthResponse {
  const services = { ...allUp.services };
  for (const name of names) services[name] = { status: 'down', latencyMs: 2000, detail: 'timed out' };
  return { ...allUp, status: 'degraded', services };
}

describe('summarizeHealth', () => {
  it('says everything is operational only when every service is up', () => {
    expect(summarizeHealth({ health: allUp, isLoading: false })).toEqual({
      tone: 'ok',
      headline: 'All systems operational',
      detail: '6 of 6 services up',
    });
  });

  it('names the services that are down', () => {
    const summary = summarizeHealth({ health: withDown('billing', 'audit'), isLoading: false });
    expect(summary.tone).toBe('degraded');
    expect(summary.headline).toBe('Partial outage');
    expect(summary.detail).toBe('billing, audit are down');
  });

  it('trusts a down service over an overall "ok"', () => {
    const contradictory = { ...withDown('auth'), status: 'ok' as const };
    expect(summarizeHealth({ health: contradictory, isLoading: false })).toMatchObject({
      tone: 'degraded',
      detail: 'auth is down',
    });
  });

  it('calls it a major outage when nothing is up', () => {
    const summary = summarizeHealth({
      health: withDown('gateway', 'auth', 'screening', 'monitoring', 'billing', 'audit'),
      isLoading: false,
    });
    expect(summary.headline).toBe('Major outage');
  });

  it('shows loading before the first report and an error when the gateway cannot be asked', () => {
    expect(summarizeHealth({ health: undefined, isLoading: true }).tone).toBe('loading');
    expect(summarizeHealth({ health: allUp, isLoading: false, error: 'Could not reach the gateway.' })).toEqual({
      tone: 'unavailable',
      headline: 'Status unavailable',
      detail: 'Could not reach the gateway.',
    });
  });
});

describe('serviceRows', () => {
  it('keeps the order the gateway listed the services in', () => {
    expect(serviceRows(allUp).map((row) => row.name)).toEqual([
      'gateway',
      'auth',
      'screening',
      'monitoring',
      'billing',
      'audit',
    ]);
  });
});

describe('formatLatency', () => {
  it.each([
    [0.4, '<1 ms'],
    [12.6, '13 ms'],
    [1530, '1.5 s'],
    [Number.NaN, '—'],
  ])('%p ms reads as %p', (input, expected) => {
    expect(formatLatency(input)).toBe(expected);
  });
});

describe('isHealthResponse', () => {
  it('accepts a gateway report', () => {
    expect(isHealthResponse(allUp)).toBe(true);
    expect(isHealthResponse(withDown('audit'))).toBe(true);
  });

  it.each([
    ['an HTML error page', '<html>502 Bad Gateway</html>'],
    ['null', null],
    ['a problem document', { type: 'about:blank', title: 'Service unavailable', status: 503 }],
    ['a service without latency', { status: 'ok', version: '1', services: { auth: { status: 'up' } } }],
    [
      'an unknown service status',
      { status: 'ok', version: '1', services: { auth: { status: 'sleeping', latencyMs: 1 } } },
    ],
  ])('rejects %s', (_label, body) => {
    expect(isHealthResponse(body)).toBe(false);
  });
});
