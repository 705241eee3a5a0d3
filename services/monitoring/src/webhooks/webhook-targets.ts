import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Where a webhook may be sent: public addresses only. A client could otherwise make Vigil call
// its internal network or the cloud metadata service (169.254.169.254) and read the answers in
// the delivery log. Checked at registration and again before each delivery (DNS may change),
// and a delivery connects to the very address it checked: asking DNS again at connect time would
// let a name answer a public address to the check and a private one to the connection (rebinding).

const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation (TEST-NET-1..3)
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2001::', 32], // Teredo: the IPv4 behind it is hidden
  ['2001:db8::', 32], // documentation
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included), or null. */
function groups(address: string): number[] | null {
  let text = address;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, more] = text.split('::');
  if (more !== undefined) return null;
  const part = (p: string | undefined) => (p ? p.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return all.length === 8 && all.every((g) => g >= 0 && g <= 0xffff) ? all : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that reach it: mapped
 * (::ffff:a.b.c.d, in either notation), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). The deprecated
 * IPv4-compatible form (::a.b.c.d) is refused by ::/96 below.
 */
function embeddedIpv4(address: string): string | null {
  const g = groups(address);
  if (!g) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return null;
}

function classify(address: string): 'public' | 'loopback' | 'private' {
  let family: 'ipv4' | 'ipv6' = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  let plain = address;
  if (family === 'ipv6') {
    const inner = embeddedIpv4(address);
    if (inner) {
      plain = inner;
      family = 'ipv4';
    } else {
      const g = groups(address);
      // ::/96 (IPv4-compatible, deprecated), apart from :: and ::1 which the lists below name.
      if (g && g.slice(0, 6).every((x) => x === 0) && (g[6] !== 0 || g[7]! > 1)) return 'private';
    }
  }
  if (loopback.check(plain, family)) return 'loopback';
  if (refused.check(plain, family)) return 'private';
  return 'public';
}

/** The addresses a host name resolves to (the system resolver unless a test gives one). */
export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** A webhook URL checked, with the one address it resolved to that a delivery connects to. */
export type Target = { url: URL; address: string; family: 4 | 6 };

/** The target `url` names, or why it may not receive webhooks. */
export async function resolveTarget(
  url: string,
  allowLoopback: boolean,
  resolve: Resolve = systemResolve,
): Promise<{ target: Target } | { problem: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'must be an absolute https:// URL' };
  }
  if (parsed.username || parsed.password) return { problem: 'must not carry credentials' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      return { problem: `the host ${host} does not resolve` };
    }
  }
  if (addresses.length === 0) return { problem: `the host ${host} does not resolve` };
  const target: Target = { url: parsed, address: addresses[0]!, family: isIP(addresses[0]!) === 6 ? 6 : 4 };
  const kinds = addresses.map(classify);
  if (kinds.includes('private')) return { problem: 'must not resolve to a private, link-local or reserved address' };
  if (kinds.includes('loopback')) {
    if (!allowLoopback) return { problem: 'must not resolve to a loopback address' };
    return { target }; // development receivers may use http
  }
  if (parsed.protocol !== 'https:') return { problem: 'must be an https:// URL' };
  return { target };
}

/** Why `url` may not receive webhooks, or null when it may. */
export async function targetProblem(url: string, allowLoopback: boolean, resolve?: Resolve): Promise<string | null> {
  const checked = await resolveTarget(url, allowLoopback, resolve);
  return 'problem' in checked ? checked.problem : null;
}

/**
 * POSTs `body` to a checked target; answers the response's status. The connection goes to the
 * address the check resolved (no second look-up), while the Host header and TLS name (SNI and
 * certificate check) stay the URL's host name. Redirects are not followed.
 */
export function postToTarget(
  target: Target,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<number> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        lookup: pinned,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
