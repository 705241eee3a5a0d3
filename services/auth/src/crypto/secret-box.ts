import { Inject, Injectable, Logger } from '@nestjs/common';
import { isSealed, openSecret, sealSecret } from '@vigil/platform';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';

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
    return this.key ? sealSecret(this.key, plaintext) : plaintext;
  }

  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    if (!this.key) throw new Error('A secret is encrypted but AUTH_ENCRYPTION_KEY is not set.');
    return openSecret(this.key, stored);
  }
}
