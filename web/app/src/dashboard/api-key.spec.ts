import { checkApiKeyFormat, maskApiKey } from './api-key.js';

const KEY = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);

describe('checkApiKeyFormat', () => {
  it('accepts 64 lowercase hex characters after trimming', () => {
    expect(checkApiKeyFormat(`  ${KEY}\n`)).toEqual({ ok: true, key: KEY });
  });

  it('asks for a key when the field is empty', () => {
    expect(checkApiKeyFormat('   ')).toEqual({ ok: false, message: 'Please enter an API key' });
  });

  it.each([KEY.toUpperCase(), KEY.slice(1), `${KEY}0`, `${KEY.slice(1)}g`])('refuses %s', (bad) => {
    expect(checkApiKeyFormat(bad)).toEqual({ ok: false, message: 'Invalid API key format. Please refresh the page.' });
  });
});

describe('maskApiKey', () => {
  it('keeps only the ends visible', () => {
    expect(maskApiKey(KEY)).toBe(`aaaa${'•'.repeat(12)}cdef`);
  });
});
