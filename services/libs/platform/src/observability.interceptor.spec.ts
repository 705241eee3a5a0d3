import { accessLogged, startAccessLog } from './observability.interceptor.js';

describe('the sampled access log', () => {
  afterAll(() => startAccessLog(1));

  it('logs every failed request whatever the sample', () => {
    startAccessLog(0);
    expect(Array.from({ length: 100 }, () => accessLogged(true)).every(Boolean)).toBe(true);
  });

  it('logs no successful request at 0 and every one at 1', () => {
    startAccessLog(0);
    expect(Array.from({ length: 100 }, () => accessLogged(false)).some(Boolean)).toBe(false);
    startAccessLog(1);
    expect(Array.from({ length: 100 }, () => accessLogged(false)).every(Boolean)).toBe(true);
  });

  it('logs about the configured fraction of the rest', () => {
    startAccessLog(0.1);
    const logged = Array.from({ length: 10_000 }, () => accessLogged(false)).filter(Boolean).length;
    expect(logged).toBeGreaterThan(700);
    expect(logged).toBeLessThan(1_300);
  });
});
