// nats-server's side of the bus's authentication: one NKey user per service with the permissions
// of @vigil/proto's table (busPermissions), rendered as nats-server configuration. Every place
// that starts a nats-server for Vigil renders it here: npm start and npm test (infra/scripts),
// the integration-test harness (testing.ts), the suites' private stacks and k8s (a committed
// file with the public keys as environment references, checked against this output).
//
// Why NKeys rather than user/password (bcrypt hashes in the config): the service proves it holds
// its seed by signing the server's nonce, so no secret crosses the wire even before TLS, and the
// server's configuration holds only public keys, so it is not itself a secret. A service given a
// seed still connects to a server that has no authorization (a NATS_URL used as-is), where a
// password would do the same.
import { nkeys } from '@nats-io/transport-node';
import { SERVICE_NAMES, busPermissionsOf, type ServiceName } from '@vigil/proto';

/** One NKey user: the seed the service holds (NATS_NKEY_SEED), the public key the server knows. */
export type BusKey = { seed: string; publicKey: string };

/** The service users and a `harness` user with no restrictions (tests and tools that play every part). */
export type BusKeys = Record<ServiceName, BusKey> & { harness?: BusKey };

const text = new TextDecoder();

/** A fresh user key pair. */
export function createBusKey(): BusKey {
  const pair = nkeys.createUser();
  return { seed: text.decode(pair.getSeed()), publicKey: pair.getPublicKey() };
}

/** A key pair for every service, and for the unrestricted harness user when asked. */
export function createBusKeys(options: { harness?: boolean } = {}): BusKeys {
  const keys = Object.fromEntries(SERVICE_NAMES.map((service) => [service, createBusKey()])) as BusKeys;
  if (options.harness) keys.harness = createBusKey();
  return keys;
}

/** The public key of a seed (what the server's configuration names). */
export function publicKeyOf(seed: string): string {
  return nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}

/** The environment variable a service's public key is read from when the config names it by reference (k8s). */
export function publicKeyVariable(service: ServiceName): string {
  return `VIGIL_NKEY_${service.toUpperCase()}`;
}

const quote = (value: string) => JSON.stringify(value);
const list = (values: readonly string[], indent: string) =>
  values.length === 0 ? '[]' : `[\n${values.map((v) => `${indent}  ${quote(v)}`).join(',\n')}\n${indent}]`;

/**
 * The `authorization` block: a user per service with its permissions. `publicKeys` are the
 * services' keys, or undefined to reference `$VIGIL_NKEY_<SERVICE>` from nats-server's
 * environment (a configuration committed once, keys per deployment). `superusers` (the test
 * harness) get no restrictions. With this block a connection without a known key is refused.
 */
export function natsAuthorization(
  options: { publicKeys?: Record<ServiceName, string>; superusers?: readonly string[] } = {},
): string {
  const users = SERVICE_NAMES.map((service) => {
    const permissions = busPermissionsOf(service);
    const nkey = options.publicKeys ? quote(options.publicKeys[service]) : `$${publicKeyVariable(service)}`;
    return [
      `    # ${service}`,
      `    {`,
      `      nkey: ${nkey}`,
      `      permissions: {`,
      `        publish: { allow: ${list(permissions.publish, '        ')} }`,
      `        subscribe: { allow: ${list(permissions.subscribe, '        ')} }`,
      `        allow_responses: ${permissions.allowResponses}`,
      `      }`,
      `    }`,
    ].join('\n');
  });
  for (const key of options.superusers ?? [])
    users.push(`    # test harness: no restrictions\n    { nkey: ${quote(key)} }`);
  return `authorization {\n  users: [\n${users.join('\n')}\n  ]\n}\n`;
}

/** TLS for client connections: nats-server's certificate, and a CA when clients must present theirs. */
export type NatsTls = { certFile: string; keyFile: string; caFile?: string; verify?: boolean };

/**
 * A whole nats-server configuration: listen address, JetStream store, monitoring port,
 * TLS when given, and the bus's authorization.
 */
export function natsServerConfig(options: {
  host?: string;
  port: number;
  storeDir: string;
  monitorPort?: number;
  tls?: NatsTls;
  publicKeys?: Record<ServiceName, string>;
  superusers?: readonly string[];
}): string {
  const lines = [
    '# Generated from @vigil/proto busPermissions by @vigil/platform/bus: do not edit by hand.',
    `listen: ${quote(`${options.host ?? '127.0.0.1'}:${options.port}`)}`,
    ...(options.monitorPort === undefined ? [] : [`http: ${options.monitorPort}`]),
    `jetstream { store_dir: ${quote(options.storeDir)} }`,
  ];
  if (options.tls) {
    const { certFile, keyFile, caFile, verify } = options.tls;
    lines.push(
      'tls {',
      `  cert_file: ${quote(certFile)}`,
      `  key_file: ${quote(keyFile)}`,
      ...(caFile ? [`  ca_file: ${quote(caFile)}`] : []),
      ...(verify ? ['  verify: true'] : []),
      '}',
    );
  }
  return `${lines.join('\n')}\n${natsAuthorization(options)}`;
}

/** The public keys of a set of keys, for natsAuthorization. */
export function publicKeysOf(keys: BusKeys): Record<ServiceName, string> {
  return Object.fromEntries(SERVICE_NAMES.map((service) => [service, keys[service].publicKey])) as Record<
    ServiceName,
    string
  >;
}

/** The variables a service process gets to connect as `service` (BaseConfig's NATS_NKEY_SEED). */
export function busEnv(keys: BusKeys | undefined, service: ServiceName): Record<string, string> {
  return keys ? { NATS_NKEY_SEED: keys[service].seed } : {};
}
