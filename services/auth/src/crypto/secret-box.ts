import { Inject, Injectable, Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';

const PREFIX = 'enc:v1:';

/**
 * Encrypts secrets the service must be able to read back (TOTP seeds, the JWT
 * signing key) with AES-256-GCM under AUTH_ENCRYPTION_KEY, so a database dump
 * alone does not give them away. Without a key (a development stack) values are
 * stored as they are and a warning says so; values written either way stay readable.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer | undefined;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.key = config.AUTH_ENCRYPTION_KEY;
    if (!this.key) new Logger('SecretBox').warn('AUTH_ENCRYPTION_KEY is not set: TOTP secrets and the signing key are stored unencrypted.');
  }

  seal(plaintext: string): string {
    if (!this.key) return plaintext;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }

  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    if (!this.key) throw new Error('A secret is encrypted but AUTH_ENCRYPTION_KEY is not set.');
    const [iv, tag, body] = stored.slice(PREFIX.length).split('.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv!, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
  }
}
