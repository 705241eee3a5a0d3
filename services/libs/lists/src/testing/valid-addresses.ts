import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { eip55Checksummed } from '../identifiers/crypto-addresses.js';

// Valid digital-currency addresses no list gives: random payloads with correct checksums, from a
// seeded generator so a failure names the same address every run. For the "none of the valid
// but unlisted addresses is found" checks (unit tests and eval:identifiers).

/** xorshift32: small, seeded, good enough to pick test payloads. */
function generator(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

const base58check = createBase58check(sha256);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** `count` valid addresses of each kind: BTC P2PKH/P2SH, Bech32 v0, Bech32m v1, EIP-55 EVM, LTC, TRON. */
export function validUnlistedAddresses(count: number, seed = 39): string[] {
  const bytes = generator(seed);
  const withVersion = (version: number, payload: Uint8Array) => base58check.encode(Uint8Array.of(version, ...payload));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(withVersion(0x00, bytes(20)));
    out.push(withVersion(0x05, bytes(20)));
    out.push(bech32.encode('bc', [0, ...bech32.toWords(bytes(20))]));
    out.push(bech32m.encode('bc', [1, ...bech32m.toWords(bytes(32))]));
    out.push(eip55Checksummed(`0x${hex(bytes(20))}`));
    out.push(withVersion(0x30, bytes(20)));
    out.push(withVersion(0x41, bytes(20)));
  }
  return out;
}
