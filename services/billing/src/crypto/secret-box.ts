import { Inject, Injectable } from '@nestjs/common';
import { isSealed, openSecret, sealSecret } from '@vigil/platform';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';

/**
 * AES-256-GCM under BILLING_ENCRYPTION_KEY for what billing must read back but must not keep
 * readable: a new API key until the success page shows it, and mail bodies carrying one. A
 * database dump alone gives neither away. `context` (the row's id) is authenticated with the
 * value, so a sealed value copied into another row does not open there.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer;

  constructor(@Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'BILLING_ENCRYPTION_KEY'>) {
    this.key = config.BILLING_ENCRYPTION_KEY;
  }

  seal(plaintext: string, context: string): string {
    return sealSecret(this.key, plaintext, context);
  }

  /** Throws if the value was not sealed by this key for this context (tampered, moved, or another key). */
  open(stored: string, context: string): string {
    if (!isSealed(stored)) throw new Error('The stored secret is not sealed.');
    return openSecret(this.key, stored, context);
  }
}
