import { createHash } from 'node:crypto';
import { newApiKey, normaliseCode, randomToken, readableCode, sha256 } from './secrets.js';

describe('secrets', () => {
  it('makes API keys of 64 lowercase hex characters, stored as SHA-256 and an 8-character prefix', () => {
    const keys = Array.from({ length: 50 }, () => newApiKey());
    for (const { key, hash, prefix } of keys) {
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(prefix).toBe(key.slice(0, 8));
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(50);
  });

  it('makes 256-bit URL-safe bearer tokens', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sha256(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes readable codes that match however they are typed back', () => {
    const code = readableCode();
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(normaliseCode(` ${code.toLowerCase().replace(/-/g, ' ')} `)).toBe(normaliseCode(code));
  });
});
