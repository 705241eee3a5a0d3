import { randomBytes } from 'node:crypto';
import { parseConfig } from '@vigil/platform';
import { DEVELOPMENT_ENCRYPTION_KEY, envSchema } from '../env.js';
import { SecretBox } from './secret-box.js';

const KEY = 'a'.repeat(64);
const box = (key = randomBytes(32)) => new SecretBox({ BILLING_ENCRYPTION_KEY: key });

describe('SecretBox', () => {
  it('seals so the plaintext is not in the stored value, and opens it again', () => {
    const sut = box();
    const sealed = sut.seal(KEY, 'cs_1');
    expect(sealed).not.toContain(KEY);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sut.seal(KEY, 'cs_1')).not.toBe(sealed);
    expect(sut.open(sealed, 'cs_1')).toBe(KEY);
  });

  it('refuses a value moved to another row, tampered with, sealed under another key, or never sealed', () => {
    const key = randomBytes(32);
    const sealed = box(key).seal(KEY, 'cs_1');
    expect(() => box(key).open(sealed, 'cs_2')).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box(key).open(tampered, 'cs_1')).toThrow();
    expect(() => box().open(sealed, 'cs_1')).toThrow();
    expect(() => box(key).open(KEY, 'cs_1')).toThrow(/not sealed/);
  });
});

describe('BILLING_ENCRYPTION_KEY', () => {
  it('is required on every NODE_ENV but development and test, with Stripe: staging gets no sandbox', () => {
    for (const NODE_ENV of ['staging', 'prod', 'Production']) {
      expect(() => parseConfig(envSchema, { NODE_ENV })).toThrow(/BILLING_ENCRYPTION_KEY/);
      expect(() =>
        parseConfig(envSchema, { NODE_ENV, BILLING_ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
      ).toThrow(/STRIPE_SECRET_KEY/);
    }
    for (const NODE_ENV of ['development', 'test']) expect(() => parseConfig(envSchema, { NODE_ENV })).not.toThrow();
  });
  it('is required in production, must be 32 bytes, and has a development default elsewhere', () => {
    expect(() => parseConfig(envSchema, { NODE_ENV: 'production' })).toThrow(/BILLING_ENCRYPTION_KEY/);
    expect(() => parseConfig(envSchema, { BILLING_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow(
      /BILLING_ENCRYPTION_KEY/,
    );
    const key = randomBytes(32);
    expect(
      parseConfig(envSchema, {
        NODE_ENV: 'production',
        BILLING_ENCRYPTION_KEY: key.toString('base64'),
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }).BILLING_ENCRYPTION_KEY.equals(key),
    ).toBe(true);
    expect(parseConfig(envSchema, {}).BILLING_ENCRYPTION_KEY.equals(DEVELOPMENT_ENCRYPTION_KEY)).toBe(true);
  });
});
