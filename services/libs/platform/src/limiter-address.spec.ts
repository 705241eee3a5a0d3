import { limiterAddress } from './limiter-address.js';

describe('limiterAddress', () => {
  it('keeps an IPv4 address, and nothing at all, as they are', () => {
    expect(limiterAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limiterAddress(undefined)).toBeUndefined();
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    expect(limiterAddress('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('2001:0DB8:0001:0002:ffff:0:0:b')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limiterAddress('::1')).toBe('0:0:0:0::/64');
    expect(limiterAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 one', () => {
    expect(limiterAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(limiterAddress('::ffff:c000:201')).toBe('192.0.2.1');
  });
});
