import { jest } from '@jest/globals';
import { join } from 'node:path';
import { BACKEND_SERVICES, SERVICES_DIR, runNode, testEnv } from './stack.js';

jest.setTimeout(30_000);

describe('a bad environment stops every service at boot with the variable named', () => {
  it.each([...BACKEND_SERVICES, 'gateway'])('%s refuses a malformed NATS_URL', async (service) => {
    const result = await runNode(join(SERVICES_DIR, service, 'dist', 'src', 'main.js'), { ...testEnv, NATS_URL: 'not a url' });
    expect(result.code).toBe(78);
    expect(result.output).toContain('NATS_URL');
    expect(result.output).toContain('nats://');
    expect(result.output).not.toMatch(/at .*\.js:\d+/);
  });

  it('names DATABASE_URL when it is not a postgres URL', async () => {
    const result = await runNode(join(SERVICES_DIR, 'audit', 'dist', 'src', 'main.js'), { ...testEnv, DATABASE_URL: 'mysql://x@y/z' });
    expect(result.code).toBe(78);
    expect(result.output).toContain('DATABASE_URL');
  });

  it('names PORT when the gateway is given a non-number', async () => {
    const result = await runNode(join(SERVICES_DIR, 'gateway', 'dist', 'src', 'main.js'), { ...testEnv, PORT: 'eighty' });
    expect(result.code).toBe(78);
    expect(result.output).toContain('PORT');
  });
});
