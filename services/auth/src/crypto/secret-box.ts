import { Inject, Injectable } from '@nestjs/common';
import { isSealed, openSecret, sealSecret } from '@vigil/platform';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';

/**
 * Seals secrets the service must be able to read back (TOTP seeds, the JWT signing key) with the
 * platform's sealSecret (AES-256-GCM) under AUTH_ENCRYPTION_KEY, so a database dump alone does
 * not give them away. Production requires the key; elsewhere a public development key stands in,
 * so values are always stored sealed. Values from before sealing are sealed by the migration
 * SealSecrets1764100000004; one still unsealed (written by an older replica during a rollout) is read as is.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(@Inject(AUTH_CONFIG) config: Pick<AuthConfig, 'AUTH_ENCRYPTION_KEY'>) {
    this.key = config.AUTH_ENCRYPTION_KEY;
  }

  seal(plaintext: string): string {
    return sealSecret(this.key, plaintext);
  }

  open(stored: string): string {
    return isSealed(stored) ? openSecret(this.key, stored) : stored;
  }
}
