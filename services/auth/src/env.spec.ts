import { ConfigError, parseConfig } from '@vigil/platform';
import { devMailboxListed, envSchema } from './env.js';

describe('auth env', () => {
  it('runs with no configuration at all, with production-strength defaults', () => {
    const config = parseConfig(envSchema, {});
    expect(config).toMatchObject({
      DB_SCHEMA: 'auth',
      ACCESS_TOKEN_TTL_SECONDS: 900,
      ARGON2_MEMORY_KIB: 19_456,
      ARGON2_TIME_COST: 2,
      LOGIN_MAX_FAILURES: 10,
      LOGIN_WINDOW_SECONDS: 900,
      MAIL_TRANSPORT: 'mailbox',
      ADMIN_EMAILS: ['admin@vigil.dev'],
    });
  });

  it('normalises the admin allow-list and the web URL', () => {
    const config = parseConfig(envSchema, {
      ADMIN_EMAILS: ' Boss@Vigil.dev, ,ops@vigil.dev ',
      WEB_URL: 'https://app.example.com/',
    });
    expect(config.ADMIN_EMAILS).toEqual(['boss@vigil.dev', 'ops@vigil.dev']);
    expect(config.WEB_URL).toBe('https://app.example.com');
  });

  it('holds every NODE_ENV but development and test to production’s rules: no dev key or mailbox on staging', () => {
    for (const NODE_ENV of ['staging', 'prod', 'Production', 'production ']) {
      expect(() => parseConfig(envSchema, { NODE_ENV, MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail' })).toThrow(
        /AUTH_ENCRYPTION_KEY/,
      );
      expect(() =>
        parseConfig(envSchema, { NODE_ENV, AUTH_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }),
      ).toThrow(/MAIL_TRANSPORT/);
    }
    for (const NODE_ENV of ['development', 'test']) expect(() => parseConfig(envSchema, { NODE_ENV })).not.toThrow();
    const staging = parseConfig(envSchema, {
      NODE_ENV: 'staging',
      VIGIL_DEV_STACK: '1',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://mail',
      AUTH_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    });
    expect(devMailboxListed({ ...staging, MAIL_TRANSPORT: 'mailbox' })).toBe(false);
  });

  it('names SMTP_URL when real mail is asked for without a server, and GOOGLE_CLIENT_SECRET when half-configured', () => {
    expect(() => parseConfig(envSchema, { MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL/);
    expect(() =>
      parseConfig(envSchema, { NODE_ENV: 'production', MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail' }),
    ).toThrow(/AUTH_ENCRYPTION_KEY/);
    expect(() =>
      parseConfig(envSchema, { NODE_ENV: 'production', AUTH_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }),
    ).toThrow(/MAIL_TRANSPORT/);
    expect(() => parseConfig(envSchema, { GOOGLE_CLIENT_ID: 'id' })).toThrow(ConfigError);
    expect(() => parseConfig(envSchema, { GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET/);
  });
});
