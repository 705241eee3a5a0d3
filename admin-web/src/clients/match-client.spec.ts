import type { Client } from '@vigil/proto';
import { matchesClient } from './match-client.js';

const client: Client = {
  id: '0b6f1c64-4d0e-4f3c-9a4e-2b8f3a1d9c11',
  client_name: 'Demo Bank',
  contact_email: 'ops@demo.example',
  tier: 'large',
  subscription_status: 'payment_failed',
  threshold_config: null,
  quota_month: 100_000,
  usage_month: 12,
  api_key_prefix: '78de5463',
  created_at: '2026-11-24T13:00:00Z',
  updated_at: '2026-11-24T13:00:00Z',
};

describe('matchesClient', () => {
  it('finds a client by name, id, tier, status or key prefix, whatever the case', () => {
    for (const term of ['demo', 'BANK', '0b6f1c64', 'large', 'payment_failed', '78de']) {
      expect([term, matchesClient(client, term)]).toEqual([term, true]);
    }
  });

  it('keeps every client for a blank search and none for a term nobody has', () => {
    expect(matchesClient(client, '   ')).toBe(true);
    expect(matchesClient(client, 'acme')).toBe(false);
  });
});
