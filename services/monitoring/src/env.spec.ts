import { isSealed, openSecret, parseConfig } from '@vigil/platform';
import { randomBytes } from 'node:crypto';
import { DEVELOPMENT_ENCRYPTION_KEY, envSchema } from './env.js';
import { WEBHOOK_SECRET_CONTEXT, WebhookSecrets } from './webhooks/webhook-secrets.js';

describe('WEBHOOK_ALLOW_LOOPBACK (local mode)', () => {
  const key = randomBytes(32).toString('base64');

  it('is refused under production rules, naming the variable and the way out', () => {
    for (const NODE_ENV of ['production', 'staging']) {
      const boot = () =>
        parseConfig(envSchema, { NODE_ENV, MONITORING_ENCRYPTION_KEY: key, WEBHOOK_ALLOW_LOOPBACK: 'true' });
      expect(boot).toThrow(/WEBHOOK_ALLOW_LOOPBACK.*refused with NODE_ENV=/);
    }
    expect(
      parseConfig(envSchema, { NODE_ENV: 'production', MONITORING_ENCRYPTION_KEY: key }).WEBHOOK_ALLOW_LOOPBACK,
    ).toBe(false);
  });

  it('is accepted in development and test, and off unless set', () => {
    for (const NODE_ENV of ['development', 'test'])
      expect(parseConfig(envSchema, { NODE_ENV, WEBHOOK_ALLOW_LOOPBACK: 'true' }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(parseConfig(envSchema, {}).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
  });
});

describe('MONITORING_ENCRYPTION_KEY', () => {
  it('is required in production', () => {
    expect(() => parseConfig(envSchema, { NODE_ENV: 'production' })).toThrow(/MONITORING_ENCRYPTION_KEY/);
  });

  it('is required on every NODE_ENV but development and test (staging included)', () => {
    for (const NODE_ENV of ['staging', 'prod', 'Production'])
      expect(() => parseConfig(envSchema, { NODE_ENV })).toThrow(/MONITORING_ENCRYPTION_KEY/);
    for (const NODE_ENV of ['development', 'test']) expect(() => parseConfig(envSchema, { NODE_ENV })).not.toThrow();
  });

  it('must be 32 bytes', () => {
    expect(() => parseConfig(envSchema, { MONITORING_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow(
      /MONITORING_ENCRYPTION_KEY/,
    );
  });

  it('falls back to the public development key outside production only', () => {
    expect(parseConfig(envSchema, {}).MONITORING_ENCRYPTION_KEY.equals(DEVELOPMENT_ENCRYPTION_KEY)).toBe(true);
    const key = randomBytes(32);
    const config = parseConfig(envSchema, {
      NODE_ENV: 'production',
      MONITORING_ENCRYPTION_KEY: key.toString('base64'),
    });
    expect(config.MONITORING_ENCRYPTION_KEY.equals(key)).toBe(true);
  });
});

describe('WebhookSecrets', () => {
  const key = randomBytes(32);
  const sut = new WebhookSecrets({ MONITORING_ENCRYPTION_KEY: key });

  it('seals a secret so the stored value holds no plaintext, and opens it again', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const stored = sut.seal(secret);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain(secret.slice(6));
    expect(sut.open(stored)).toBe(secret);
    expect(openSecret(key, stored, WEBHOOK_SECRET_CONTEXT)).toBe(secret);
  });

  it('does not open under another key or another context', () => {
    const stored = sut.seal('whsec_abc');
    expect(() => new WebhookSecrets({ MONITORING_ENCRYPTION_KEY: randomBytes(32) }).open(stored)).toThrow();
    expect(() => openSecret(key, stored, 'auth.mfa_factors.secret')).toThrow();
  });

  it('reads a row an older replica stored plain', () => {
    expect(sut.open('whsec_plain')).toBe('whsec_plain');
  });
});
