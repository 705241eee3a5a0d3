import { isIP } from 'node:net';

/**
 * The address failed-credential limits count by (auth's sign-in limits, the gateway's failed-auth
 * limit: one rule for both). An IPv4 address as it is. An IPv6 address by its /64:
 * one subscriber is routed a whole /64 (often far more), so one host can send every guess from a
 * new address, and a limit per exact address would limit nothing. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, how a dual-stack socket may report an IPv4 client) as the IPv4 one.
 * Anything that is not an IP address (there is none from the gateway) as given.
 */
export function limiterAddress(ip: string | undefined): string | undefined {
  if (ip === undefined || isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, `::` and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  if (groups.length !== 8) return undefined;
  return groups.map((g) => parseInt(g, 16));
}
