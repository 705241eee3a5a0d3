import { parseConfig } from '@vigil/platform';
import { envSchema } from './env.js';

describe('Idempotency-Key claim clocks', () => {
  it('renew every 2 s and lapse after 10 s unless set', () => {
    const config = parseConfig(envSchema, {});
    expect([config.IDEMPOTENCY_CLAIM_RENEW_MS, config.IDEMPOTENCY_CLAIM_TAKEOVER_MS]).toEqual([2_000, 10_000]);
  });

  it('refuse a takeover time shorter than three renewals, naming the variable', () => {
    expect(() => parseConfig(envSchema, { IDEMPOTENCY_CLAIM_RENEW_MS: '4000' })).toThrow(
      /IDEMPOTENCY_CLAIM_TAKEOVER_MS/,
    );
    expect(
      parseConfig(envSchema, { IDEMPOTENCY_CLAIM_RENEW_MS: '500', IDEMPOTENCY_CLAIM_TAKEOVER_MS: '1500' }),
    ).toMatchObject({
      IDEMPOTENCY_CLAIM_TAKEOVER_MS: 1_500,
    });
  });
});
