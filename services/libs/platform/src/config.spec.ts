import { z } from 'zod';
import { baseEnvSchema, ConfigError, envSchemas, parseConfig, productionRules } from './config.js';

describe('parseConfig', () => {
  it('applies defaults and freezes the result', () => {
    const config = parseConfig(baseEnvSchema, {});
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(config.LOG_LEVEL).toBe('info');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable in one error', () => {
    const attempt = () => parseConfig(baseEnvSchema, { NATS_URL: 'http://x', DATABASE_URL: 'nope', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
      expect(variables).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'NATS_URL']);
      expect((error as Error).message).toContain('NATS_URL: must be one or more comma-separated nats://host:port URLs');
    }
  });

  it('accepts a cluster of NATS servers', () => {
    const config = parseConfig(baseEnvSchema, { NATS_URL: 'nats://a:4222, nats://b:4222' });
    expect(config.NATS_URL).toContain('nats://b:4222');
  });

  it('treats empty strings as unset so optional variables can be blanked', () => {
    const config = parseConfig(baseEnvSchema, { HEALTH_PORT: '', LOG_LEVEL: '' });
    expect(config.HEALTH_PORT).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('coerces numbers and rejects out-of-range ports', () => {
    const schema = baseEnvSchema.extend({ PORT: z.coerce.number().int().min(1).max(65535) });
    expect(parseConfig(schema, { PORT: '8080' }).PORT).toBe(8080);
    expect(() => parseConfig(schema, { PORT: '70000' })).toThrow(/PORT/);
  });

  it('shares the helpers services build their variables from', () => {
    const schema = z.object({
      SCHEMA: envSchemas.dbSchema,
      ON: envSchemas.bool,
      URL: envSchemas.httpUrl,
      LIST: envSchemas.commaList,
      KEY: envSchemas.encryptionKey,
    });
    const key = Buffer.alloc(32, 7);
    const config = parseConfig(schema, {
      SCHEMA: 'audit_2',
      ON: '1',
      URL: 'https://example.test/app//',
      LIST: ' a, b,, c ',
      KEY: key.toString('base64'),
    });
    expect(config).toEqual({
      SCHEMA: 'audit_2',
      ON: true,
      URL: 'https://example.test/app',
      LIST: ['a', 'b', 'c'],
      KEY: key,
    });
    const bad = () =>
      parseConfig(schema, {
        SCHEMA: 'Audit; drop',
        ON: 'yes',
        URL: 'ftp://x',
        LIST: '',
        KEY: Buffer.alloc(16).toString('base64'),
      });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.variable).sort()).toEqual([
        'KEY',
        'LIST',
        'ON',
        'SCHEMA',
        'URL',
      ]);
    }
  });
});

describe('productionRules', () => {
  it('spares only development and test: staging, a typo or an empty value get production’s guards', () => {
    expect(productionRules('development')).toBe(false);
    expect(productionRules('test')).toBe(false);
    for (const nodeEnv of ['production', 'staging', 'prod', 'Production', 'development ', '']) {
      expect([nodeEnv, productionRules(nodeEnv)]).toEqual([nodeEnv, true]);
    }
  });
});
