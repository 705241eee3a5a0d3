// Every request the public site shows an integrator, in one place: the home page and the
// Docs page render these, and web/e2e/samples.e2e.ts runs each one (the exact curl text
// the page shows) against a real stack with a real key. A sample that would fail there
// fails the test, not an integrator's first hour.
// No imports: the browser tests load this file directly.

export type ApiSample = {
  id: string;
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
};

/** The header the public API takes the key in (the OpenAPI document's `apiKey` scheme). */
export const API_KEY_HEADER = 'x-api-key';

/** The shell variables the samples read, so they run as shown once both are set. */
export const API_URL_VARIABLE = 'VIGIL_API_URL';
export const API_KEY_VARIABLE = 'VIGIL_API_KEY';

export const SCREEN_SAMPLE: ApiSample = {
  id: 'screen',
  title: 'Screen one name',
  method: 'POST',
  path: '/api/v1/screen',
  body: { name: 'Nicolas Maduro Moros', dateOfBirth: '1962-11-23', nationality: 'VE', entityType: 'person' },
};

export const API_SAMPLES: readonly ApiSample[] = [
  SCREEN_SAMPLE,
  {
    id: 'bulk-screen',
    title: 'Screen a batch: each row takes a single screen’s fields and your reference, echoed in its result',
    method: 'POST',
    path: '/api/v1/bulk-screen',
    body: {
      entities: [
        { name: 'Nicolas Maduro Moros', dateOfBirth: '1962-11-23', nationality: 'VE', reference: 'onboarding-1' },
        { name: 'Banco Nacional de Cuba', entityType: 'organization', reference: 'onboarding-2' },
      ],
      limit: 3,
    },
  },
  {
    id: 'screen-payment',
    title:
      'Screen a payment message (MT103 here; ISO 20022 pacs.008, pacs.009 and pain.001 XML too): every hit names its field',
    method: 'POST',
    path: '/api/v1/screen/payment',
    body: {
      message: [
        '{1:F01COBADEFFAXXX0000000000}{2:I103BNPAFRPPXXXXN}{4:',
        ':20:INV-2026-0042',
        ':23B:CRED',
        ':32A:261128EUR9800,00',
        ':50K:/DE89370400440532013000',
        'ANNA SCHMIDT',
        ':57A:BNPAFRPPXXX',
        ':59:/FR1420041010050500013M02606',
        'BANCO NACIONAL DE CUBA',
        ':70:INVOICE 42',
        ':71A:SHA',
        '-}',
      ].join('\n'),
    },
  },
  { id: 'status', title: 'Your plan, quota and usage', method: 'GET', path: '/api/v1/status' },
  { id: 'lists', title: 'The lists screened against, with their versions', method: 'GET', path: '/api/v1/lists' },
  {
    id: 'evidence',
    title: 'Your screening evidence, hash-chained, with the key alone (?format=ndjson or csv: one record a line)',
    method: 'GET',
    path: '/api/client/audit/screenings',
  },
];

/** The sample as a curl command that runs as shown once VIGIL_API_URL and VIGIL_API_KEY are set. */
export function curlCommand(sample: ApiSample): string {
  const lines = [
    `curl -X ${sample.method} "$${API_URL_VARIABLE}${sample.path}"`,
    `  -H "${API_KEY_HEADER}: $${API_KEY_VARIABLE}"`,
  ];
  if (sample.body) {
    lines.push('  -H "Content-Type: application/json"');
    lines.push(`  -d '${JSON.stringify(sample.body, null, 2).replace(/\n/g, '\n  ')}'`);
  }
  return lines.join(' \\\n');
}

/** The sample for an operation of the OpenAPI document, if the site has one. */
export function sampleFor(method: string, path: string): ApiSample | undefined {
  return API_SAMPLES.find((s) => s.method === method.toUpperCase() && s.path === path);
}
