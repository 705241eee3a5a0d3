import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// One format for every service that must read back a secret it keeps encrypted at rest
// (auth's TOTP seeds and signing key, billing's pending API keys): AES-256-GCM with a
// random 96-bit IV, `enc:v1:<iv>.<tag>.<ciphertext>` in base64url. Which key, and what
// to do without one, stays each service's own decision.

export const SEALED_PREFIX = 'enc:v1:';

/** `context`, when given, is authenticated with the value: it opens only under the same context. */
export function sealSecret(key: Buffer, plaintext: string, context?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

/** Throws if the value is malformed or was not sealed by this key (for this context). */
export function openSecret(key: Buffer, stored: string, context?: string): string {
  const [iv, tag, body] = stored.slice(SEALED_PREFIX.length).split('.');
  if (!isSealed(stored) || !iv || !tag || body === undefined) throw new Error('The stored secret is malformed.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
