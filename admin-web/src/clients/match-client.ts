import type { Client } from '@vigil/proto';

/** What a client row can be found by: name, id, tier, subscription status or key prefix. */
export function matchesClient(client: Client, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (needle === '') return true;
  return [client.client_name, client.id, client.tier, client.subscription_status, client.api_key_prefix ?? '']
    .join(' ')
    .toLowerCase()
    .includes(needle);
}
