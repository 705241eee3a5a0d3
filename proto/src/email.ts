import { z } from 'zod';

/**
 * An email address as RFC 5321 bounds it: zod's syntax, at most 254 characters, and a local part
 * (before the @) of at most 64: a longer one no mail server delivers to, and JSON Schema's `email`
 * format (which /openapi.json states) refuses it, so a client validating against the document and
 * the gateway agree.
 */
export const emailAddress = (message?: string) =>
  z
    .email(message ? { message } : undefined)
    .max(254)
    .refine((email) => email.lastIndexOf('@') <= 64, { message: message ?? 'the part before @ is over 64 characters' });
