import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PREFIX_LENGTH } from '@vigil/proto';

/** SHA-256 in hex. Enough for secrets with ≥128 bits of entropy; passwords use argon2id instead. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** An opaque bearer secret (refresh, reset, confirmation tokens): 256 bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A new API key: 64 lowercase hex characters from the CSPRNG, plus what is stored of it. */
export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = randomBytes(32).toString('hex');
  return { key, hash: sha256(key), prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** Human-typable one-time codes (invitations, MFA recovery): 80 bits in groups of 4. */
export function readableCode(groups = 4): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(groups * 4);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return Array.from({ length: groups }, (_, i) => chars.slice(i * 4, i * 4 + 4).join('')).join('-');
}

/** Codes are compared case- and dash-insensitively, so hash the normalised form. */
export function normaliseCode(code: string): string {
  return code.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export const newId = randomUUID;
