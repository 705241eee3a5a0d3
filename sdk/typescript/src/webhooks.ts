/** How far a delivery's `webhook-timestamp` may be from now, in seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The delivery is not signed by this secret, or is too old or too new to trust. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export type VerifyWebhookOptions = {
  /** Seconds since the epoch to check the timestamp against; now by default. */
  now?: number;
  toleranceSeconds?: number;
};

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(entry) ? entry.join(' ') : entry;
}

function base64(bytes: ArrayBuffer | Uint8Array): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Checks a delivery's Standard Webhooks signature, as Vigil signs them: `webhook-signature` holds
 * space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}`,
 * keyed with the base64 secret after `whsec_`. Pass the raw body as received (a re-serialised
 * object would not match). Resolves when authentic; rejects with WebhookVerificationError otherwise.
 * Web Crypto only, so it runs in Node 20+, browsers and edge runtimes alike.
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<void> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  // A replayed old delivery, or one from a clock far ahead, is refused even with a good signature.
  if (Math.abs(now - sentAt) > (options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS))
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const key = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  const hmac = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const payload = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + payload.length);
  signed.set(prefix);
  signed.set(payload, prefix.length);
  const expected = base64(await crypto.subtle.sign('HMAC', hmac, signed));
  const matches = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    return version === 'v1' && value !== undefined && timingSafeEqual(value, expected);
  });
  if (!matches) throw new WebhookVerificationError('no webhook-signature matches');
}
