// The bus's nats-server configuration and keys for Kubernetes, from the permission table
// (@vigil/proto busPermissions, rendered by @vigil/platform/bus; needs `npm run build`):
//
//   node infra/scripts/nats-config.mjs conf            the in-cluster server's config (k8s/components/infra/nats-server.conf)
//   node infra/scripts/nats-config.mjs authorization   the authorization block alone, for a NATS run elsewhere
//                                                      (k8s/overlays/prod/nats-authorization.conf)
//   node infra/scripts/nats-config.mjs secrets         fresh keys as Secrets: vigil-nats-<service> (NATS_NKEY_SEED)
//                                                      and nats-nkeys (the public keys the server reads), for
//                                                      `| kubectl apply -n <namespace> -f -` before the first deploy
//
// The committed configs name each service's public key as $VIGIL_NKEY_<SERVICE>, which nats-server
// reads from its environment (the nats-nkeys Secret): the configuration is reviewed in git, the
// keys are the deployment's own. infra/test/manifests.spec.ts fails when a committed file differs
// from what this prints, so a change to the table reaches the clusters with the code that needs it.
import { fileURLToPath } from 'node:url';

/** The in-cluster server (components/infra/nats.yaml): JetStream on the volume, monitoring port for probes. */
export async function clusterConfig() {
  const { natsServerConfig } = await import('@vigil/platform/bus');
  return natsServerConfig({ host: '0.0.0.0', port: 4222, monitorPort: 8222, storeDir: '/data' });
}

/** The authorization block alone, for a server whose other settings (TLS, cluster) are its operator's. */
export async function authorizationConfig() {
  const { natsAuthorization } = await import('@vigil/platform/bus');
  return `# Generated from @vigil/proto busPermissions by @vigil/platform/bus: do not edit by hand.\n${natsAuthorization()}`;
}

/** Fresh keys as Secret manifests (stringData). */
export async function secretsYaml() {
  const { SERVICE_NAMES } = await import('@vigil/proto');
  const { createBusKeys, publicKeyVariable } = await import('@vigil/platform/bus');
  const keys = createBusKeys();
  const docs = SERVICE_NAMES.map((service) =>
    [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      `  name: vigil-nats-${service}`,
      'stringData:',
      `  NATS_NKEY_SEED: ${keys[service].seed}`,
    ].join('\n'),
  );
  docs.push(
    [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: nats-nkeys',
      'stringData:',
      ...SERVICE_NAMES.map((service) => `  ${publicKeyVariable(service)}: ${keys[service].publicKey}`),
    ].join('\n'),
  );
  return `${docs.join('\n---\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2];
  const print = { conf: clusterConfig, authorization: authorizationConfig, secrets: secretsYaml }[what];
  if (!print) {
    process.stderr.write('usage: node infra/scripts/nats-config.mjs conf|authorization|secrets\n');
    process.exit(2);
  }
  process.stdout.write(await print());
}
