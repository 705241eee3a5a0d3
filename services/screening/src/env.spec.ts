import { ConfigError, parseConfig } from '@vigil/platform';
import { envSchema } from './env.js';

describe('screening configuration', () => {
  it('leases a refresh for 120 s and renews it every 30 s unless told otherwise', () => {
    expect(parseConfig(envSchema, {})).toMatchObject({ LISTS_LEASE_SECONDS: 120, LISTS_LEASE_RENEW_SECONDS: 30 });
  });

  it('refuses a renewal interval that is not shorter than the lease, naming the variable', () => {
    for (const renew of ['30', '45']) {
      const parse = () => parseConfig(envSchema, { LISTS_LEASE_SECONDS: '30', LISTS_LEASE_RENEW_SECONDS: renew });
      expect(parse).toThrow(ConfigError);
      expect(parse).toThrow(/LISTS_LEASE_RENEW_SECONDS: must be shorter than LISTS_LEASE_SECONDS/);
    }
    expect(parseConfig(envSchema, { LISTS_LEASE_SECONDS: '2', LISTS_LEASE_RENEW_SECONDS: '1' })).toMatchObject({ LISTS_LEASE_SECONDS: 2 });
  });
});
