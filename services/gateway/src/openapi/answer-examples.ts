import { PLANS } from '@vigil/proto';

/**
 * The success answers' examples in /openapi.json (the docs page and the SDKs show them), one place
 * for all of them: what a bank's integrator sees first. Each is an answer as the gateway writes it
 * for the sample lists; openapi-answers.spec.ts validates every example against the documented
 * schema of its response, so an example cannot drift from the contract it illustrates.
 */

const LIST_VERSION = {
  source: 'ofac-sdn',
  feed: 'ofac',
  versionId: 42,
  sha256: '9f2c1e0b7d4a8c3e5f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a',
  fetchedAt: '2026-11-28T06:00:04.512Z',
  entityCount: 18423,
} as const;

const THRESHOLDS = { highScore: 0.9, mediumScore: 0.75 } as const;
const ALGORITHM = 'vigil-v3';

/** POST /api/v1/screen: a blocked name, its explained match and the list versions it was screened against. */
export const SCREEN_EXAMPLE = {
  screeningId: '0b7e4c2a-6f1d-4e8b-a3c5-9d2f7e1b4a60',
  searchedName: 'Viktor Bout',
  searchedEmail: null,
  match: true,
  blocked: true,
  status: 'blocked',
  topScore: 0.97,
  label: 'Exact Match',
  results: [
    {
      id: 'ofac-sdn:90001',
      name: 'BOUT, Viktor Anatolijevitch',
      matchedName: 'BUT, Viktor',
      matchedNameStrength: 'strong',
      matchedOn: 'name',
      score: 0.97,
      status: 'blocked',
      label: 'Exact Match',
      entityType: 'individual',
      source: 'ofac-sdn',
      sourceId: '90001',
      sourceDataset: 'ofac_sdn',
      feed: 'ofac',
      programs: ['SDGT'],
      explanation: {
        text: '"viktor" = "viktor" (exact); "bout" ~ "but" (phonetic)',
        nameScore: 0.97,
        queryScheme: 'latin',
        listScheme: 'latin',
        tokens: [
          { query: ['viktor'], list: ['viktor'], method: 'exact', score: 1, weight: 0.5 },
          { query: ['bout'], list: ['but'], method: 'phonetic', score: 0.94, weight: 0.5 },
        ],
        unmatchedList: [],
        qualifiers: [],
      },
    },
  ],
  listVersions: [LIST_VERSION],
  algorithm: ALGORITHM,
  thresholds: THRESHOLDS,
  screenedAt: '2026-11-28T09:14:22.031Z',
};

const BULK_ROW_MATCH = {
  id: 'ofac-sdn:90003',
  name: 'MADURO MOROS, Nicolas',
  matchedName: 'MADURO, Nicolas',
  score: 0.93,
  status: 'blocked',
  label: 'High Confidence Match',
  source: 'ofac-sdn',
  sourceId: '90003',
  sourceDataset: 'ofac_sdn',
  feed: 'ofac',
  entityType: 'individual',
} as const;

/** POST /api/v1/bulk-screen (200): up to 1,000 rows screened at once, each echoing its `reference`. */
export const BULK_SCREEN_EXAMPLE = {
  results: [
    {
      screeningId: '3c9a1e5f-2b7d-4c8e-9f1a-6d4b2e8c0a71',
      searchedName: 'Nicolas Maduro',
      reference: 'customer-10442',
      match: true,
      blocked: true,
      status: 'blocked',
      topScore: 0.93,
      label: 'High Confidence Match',
      results: [BULK_ROW_MATCH],
    },
    {
      screeningId: '3c9a1e5f-2b7d-4c8e-9f1a-6d4b2e8c0a72',
      searchedName: 'Maria Fernandez',
      reference: 'customer-10443',
      match: false,
      blocked: false,
      status: 'clear',
      topScore: 0,
      label: 'No Match',
      results: [],
    },
  ],
  summary: { total: 2, matches: 1, blocked: 1 },
  listVersions: [LIST_VERSION],
  algorithm: ALGORITHM,
  thresholds: THRESHOLDS,
  screenedAt: '2026-11-28T09:15:03.880Z',
};

/** POST /api/v1/bulk-screen (202): more than 1,000 rows become a job to poll. */
export const BULK_JOB_ACCEPTED_EXAMPLE = {
  jobId: '5b1f0c6e-8a2d-4f3b-9c7e-2d4a6b8c0e1f',
  status: 'queued',
  total: 25000,
  statusUrl: '/api/v1/jobs/5b1f0c6e-8a2d-4f3b-9c7e-2d4a6b8c0e1f',
};

/** GET /api/v1/jobs/{id}: a job under way, its first page of results (one row failed validation). */
export const BULK_JOB_EXAMPLE = {
  id: '5b1f0c6e-8a2d-4f3b-9c7e-2d4a6b8c0e1f',
  status: 'running',
  total: 25000,
  processed: 12000,
  failed: 1,
  progress: 0.48,
  createdAt: '2026-11-28T09:20:00.000Z',
  completedAt: null,
  results: [
    {
      row: 0,
      screeningId: '7e2d4f6a-8c1b-4a3e-b5d7-0f9e1c3a5b82',
      searchedName: 'Nicolas Maduro',
      reference: 'customer-20001',
      match: true,
      blocked: true,
      status: 'blocked',
      topScore: 0.93,
      label: 'High Confidence Match',
      results: [BULK_ROW_MATCH],
      listVersions: [{ source: 'ofac-sdn', versionId: 42 }],
      algorithm: ALGORITHM,
    },
    {
      row: 1,
      searchedName: '',
      reference: 'customer-20002',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', detail: 'name: a name or an email is required' },
    },
  ],
  page: { offset: 0, limit: 2, returned: 2, has_more: true, next_offset: 2 },
};

/** GET /api/v1/lists: one list of the catalogue. */
export const LISTS_EXAMPLE = {
  lists: [
    {
      source: 'ofac-sdn',
      name: 'OFAC Specially Designated Nationals (SDN)',
      publisher: 'US Treasury, Office of Foreign Assets Control',
      location: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV',
      feed: 'ofac',
      sourceDataset: 'ofac_sdn',
      status: 'active',
      description: 'Individuals, companies, vessels and aircraft whose assets are blocked under US sanctions programs.',
      entityCount: 18423,
      version: 42,
      fileSize: 6815744,
      lastUpdated: '2026-11-28T06:00:04.512Z',
      checksum: '9f2c1e0b7d4a8c3e5f6a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a',
      lastCheckedAt: '2026-11-28T09:00:00.000Z',
      lastError: null,
      refreshIntervalMinutes: 60,
    },
  ],
};

/** GET /api/v1/status: the key's client, its plan and its usage this period. */
export const STATUS_EXAMPLE = {
  tier: 'medium',
  usage: 12840,
  quota: 50000,
  remaining: 37160,
  client: 'Demo Bank',
  subscriptionStatus: 'active',
  period: '2026-11-14T00:00:00.000Z',
  periodEnd: '2026-12-14T00:00:00.000Z',
};

/** GET /api/v1/plans and /api/plans: the catalogue itself, as the gateway serves it. */
export const PLANS_EXAMPLE = { plans: PLANS };

/** POST /api/v1/screen/payment: an MT103 whose beneficiary (field 59) is listed; the debtor is clear. */
export const PAYMENT_SCREEN_EXAMPLE = {
  screeningId: '5c1d9e7a-2b4f-4a6e-8d3c-7f0e1a2b3c4d',
  messageType: 'mt103',
  messageReference: 'INV20261128-001',
  status: 'blocked',
  blocked: true,
  match: true,
  parties: [
    {
      role: 'debtor',
      path: '/block4/50K',
      name: 'NORTHWIND TRADING LTD',
      countries: ['GB'],
      identifiers: [{ type: 'iban', value: 'GB29NWBK60161331926819', field: '/block4/50K/account' }],
      status: 'clear',
      hits: [],
    },
    {
      role: 'creditor',
      path: '/block4/59',
      name: 'VIKTOR BOUT',
      countries: [],
      identifiers: [],
      status: 'blocked',
      hits: [
        {
          field: '/block4/59/name',
          value: 'VIKTOR BOUT',
          kind: 'name',
          status: 'blocked',
          reason: 'OFAC SDN: BOUT, Viktor Anatolijevitch (score 0.97)',
          result: SCREEN_EXAMPLE.results[0],
        },
      ],
    },
  ],
  freeText: [{ field: '/block4/70', text: 'INVOICE 4711 SPARE PARTS', status: 'clear', hits: [] }],
  fieldsScreened: 6,
  listVersions: [LIST_VERSION],
  algorithm: ALGORITHM,
  thresholds: THRESHOLDS,
  screenedAt: '2026-11-28T09:20:41.118Z',
};
