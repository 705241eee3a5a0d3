import { API_SAMPLES, SCREEN_SAMPLE, curlCommand, sampleFor } from './samples.js';

describe('the site’s request samples', () => {
  it('send the API key in x-api-key, never as a bearer token', () => {
    for (const sample of API_SAMPLES) {
      const curl = curlCommand(sample);
      expect(curl).toContain('-H "x-api-key: $VIGIL_API_KEY"');
      expect(curl).not.toMatch(/authorization|bearer/i);
      expect(curl).toContain(`"$VIGIL_API_URL${sample.path}"`);
    }
  });

  it('write the body as JSON the shell passes through unchanged', () => {
    const curl = curlCommand(SCREEN_SAMPLE);
    const body = /-d '([\s\S]*)'$/.exec(curl)![1]!;
    expect(JSON.parse(body)).toEqual(SCREEN_SAMPLE.body);
    expect(body).not.toContain("'");
  });

  it('never show an empty batch for a bulk screen, and show each row with its reference', () => {
    const rows = (sampleFor('post', '/api/v1/bulk-screen')!.body as { entities: Array<{ reference?: string }> })
      .entities;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.reference).toEqual(expect.any(String));
  });
});
