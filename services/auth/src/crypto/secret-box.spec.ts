import { randomBytes } from 'node:crypto';
import type { AuthConfig } from '../env.js';
import { SecretBox } from './secret-box.js';

const box = (key: Buffer) => new SecretBox({ AUTH_ENCRYPTION_KEY: key } as AuthConfig);

describe('SecretBox', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh nonce each time, and never stores the plaintext', () => {
    const sut = box(key);
    const a = sut.seal('JBSWY3DPEHPK3PXP');
    const b = sut.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sut.open(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a tampered value or the wrong key', () => {
    const sealed = box(key).seal('secret');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => box(key).open(tampered)).toThrow();
    expect(() => box(randomBytes(32)).open(sealed)).toThrow();
  });

  it('always seals, and reads a value an older replica stored before sealing', () => {
    expect(box(key).seal('plain')).toMatch(/^enc:v1:/);
    expect(box(key).open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });
});
