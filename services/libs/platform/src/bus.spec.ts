// The permission table says whom each service calls; this reads the services' code to see that
// every request they make is in it (a missing entry would fail only at runtime, as a refusal).
import { busCalls, type ServiceName } from '@vigil/proto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsAuthorization } from './bus.js';

const servicesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function sourcesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesOf(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** `contracts.a.b` in every `rpc.request(...)` / `requestBytes(...)` of a service's code, as subjects. */
async function requestedSubjects(service: ServiceName): Promise<string[]> {
  const { contracts } = await import('@vigil/proto');
  const found = new Set<string>();
  for (const source of sourcesOf(join(servicesDir, service, 'src')))
    for (const [, path] of source.matchAll(/\.request(?:Bytes)?\(\s*contracts\.([\w.]+)/g)) {
      const contract = path!
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], contracts);
      found.add((contract as { subject: string }).subject);
    }
  return [...found].sort();
}

describe('who calls whom', () => {
  it.each(['monitoring', 'billing', 'auth', 'screening', 'audit'] as const)(
    '%s requests only what the table lets it',
    async (service) => {
      const requested = await requestedSubjects(service);
      expect({ service, outside: requested.filter((s) => !busCalls[service].includes(s)) }).toEqual({
        service,
        outside: [],
      });
    },
  );

  it('finds the service-to-service calls it checks', async () => {
    expect(await requestedSubjects('billing')).toEqual([
      'clients.v1.get',
      'clients.v1.notification-settings',
      'clients.v1.provision',
      'clients.v1.update-subscription',
    ]);
    expect(await requestedSubjects('monitoring')).toEqual(['screening.v1.entity', 'screening.v1.rescreen']);
  });
});

describe('natsAuthorization', () => {
  it('names each service by its key, or by $VIGIL_NKEY_<SERVICE> for the clusters', () => {
    const keys = { gateway: 'UG', auth: 'UA', screening: 'US', monitoring: 'UM', billing: 'UB', audit: 'UD' };
    expect(natsAuthorization({ publicKeys: keys })).toContain('nkey: "US"');
    expect(natsAuthorization()).toContain('nkey: $VIGIL_NKEY_SCREENING');
    expect(natsAuthorization({ superusers: ['UH'] })).toMatch(/# test harness: no restrictions\n\s+\{ nkey: "UH" \}/);
  });
});
