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
    // Change one character of the ciphertext for one that is certainly different (the former
    // version replaced a character with 'A' or 'B' and, 1 time in 64, put back the same one).
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => box(key).open(tampered)).toThrow();
    expect(() => box(randomBytes(32)).open(sealed)).toThrow();
  });

  it('always seals, and reads a value an older replica stored before sealing', () => {
    expect(box(key).seal('plain')).toMatch(/^enc:v1:/);
    expect(box(key).open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });
});
