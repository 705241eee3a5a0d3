import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';

const PREFIX = 'enc:v1:';

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
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }

  /** Throws if the value was not sealed by this key for this context (tampered, moved, or another key). */
  open(stored: string, context: string): string {
    if (!stored.startsWith(PREFIX)) throw new Error('The stored secret is not sealed.');
    const [iv, tag, body] = stored.slice(PREFIX.length).split('.');
    if (!iv || !tag || body === undefined) throw new Error('The stored secret is malformed.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
