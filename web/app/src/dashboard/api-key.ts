import { API_KEY_PATTERN } from '@vigil/proto';

export type ApiKeyStatus = 'not-set' | 'validating' | 'connected' | 'invalid';

export const API_KEY_STATUS_LABEL: Record<ApiKeyStatus, string> = {
  'not-set': 'Not Set',
  validating: 'Validating',
  connected: 'Connected',
  invalid: 'Invalid',
};

/** Spec §5: the key, trimmed, must be exactly 64 lowercase hexadecimal characters. */
export function checkApiKeyFormat(input: string): { ok: true; key: string } | { ok: false; message: string } {
  const key = input.trim();
  if (key === '') return { ok: false, message: 'Please enter an API key' };
  if (!API_KEY_PATTERN.test(key)) return { ok: false, message: 'Invalid API key format. Please refresh the page.' };
  return { ok: true, key };
}

/** Shows only the first and last four characters, e.g. "3f9a••••••••c0de". */
export function maskApiKey(key: string): string {
  return key.length <= 8 ? '•'.repeat(key.length) : `${key.slice(0, 4)}${'•'.repeat(12)}${key.slice(-4)}`;
}
