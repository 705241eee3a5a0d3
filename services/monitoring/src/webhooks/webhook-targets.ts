import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where a webhook may be sent: public addresses only. A client could otherwise make Vigil call
// its internal network or the cloud metadata service (169.254.169.254) and read the answers in
// the delivery log. Checked at registration and again before each delivery (DNS may change).

const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

function classify(address: string): 'public' | 'loopback' | 'private' {
  let family: 'ipv4' | 'ipv6' = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  let plain = address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    plain = mapped[1]!;
    family = 'ipv4';
  }
  if (loopback.check(plain, family)) return 'loopback';
  if (refused.check(plain, family)) return 'private';
  return 'public';
}

/** Why `url` may not receive webhooks, or null when it may. */
export async function targetProblem(url: string, allowLoopback: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return `the host ${host} does not resolve`;
    }
  }
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  const kinds = addresses.map(classify);
  if (kinds.includes('private')) return 'must not resolve to a private, link-local or reserved address';
  if (kinds.includes('loopback')) {
    if (!allowLoopback) return 'must not resolve to a loopback address';
    return null; // development receivers may use http
  }
  if (parsed.protocol !== 'https:') return 'must be an https:// URL';
  return null;
}
