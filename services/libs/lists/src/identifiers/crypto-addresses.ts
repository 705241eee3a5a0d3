// Digital-currency addresses: which format a string is, whether its checksum holds, and the one
// spelling the identifier index keys it by. Decoding and hashing come from @scure/base (base58,
// Base58Check, Bech32/Bech32m, Monero base58) and @noble/hashes (SHA-256, Keccak-256): small,
// audited, dependency-free and maintained, where hand-written decoders would be the riskiest
// code in this file. The version bytes and rules are those of each chain's published format:
// Bitcoin BIP 13/173/350, EIP-55, Litecoin, Dash, Zcash (transparent), TRON, Bitcoin Gold,
// Dogecoin/Verge, Bitcoin Cash CashAddr and Monero.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58xmr, bech32, bech32m, createBase58check } from '@scure/base';

/** How an address is checked: the checksum its format carries. */
export type CryptoChecksum = 'eip55' | 'base58check' | 'bech32' | 'bech32m' | 'cashaddr' | 'monero';

/**
 * What a string is as a digital-currency address. `chain` is the ticker the format belongs to
 * (OFAC's spelling: XBT for bitcoin); an EVM address serves every EVM chain (ETH, USDT, BSC…),
 * so its `chain` is ETH. `problem` is set when the format is recognised but the checksum fails.
 */
export type CryptoAddressReading = { chain: string; checksum: CryptoChecksum; problem?: string };

const base58check = createBase58check(sha256);

/** Base58Check version prefixes (hex) and the chain each belongs to. */
const BASE58_VERSIONS: ReadonlyMap<string, string> = new Map([
  ['00', 'XBT'], // P2PKH "1…" (also Bitcoin Cash legacy)
  ['05', 'XBT'], // P2SH "3…" (also Litecoin's and Bitcoin Cash's legacy P2SH)
  ['30', 'LTC'], // "L…"
  ['32', 'LTC'], // "M…"
  ['4c', 'DASH'], // "X…"
  ['10', 'DASH'], // "7…"
  ['41', 'TRX'], // TRON "T…"
  ['26', 'BTG'], // "G…"
  ['17', 'BTG'], // "A…"
  ['1e', 'XVG'], // "D…" (Dogecoin and Verge share it)
  ['1cb8', 'ZEC'], // transparent "t1…"
  ['1cbd', 'ZEC'], // transparent "t3…"
]);

const BECH32_CHAINS: ReadonlyMap<string, string> = new Map([
  ['bc', 'XBT'],
  ['tb', 'XBT'],
  ['ltc', 'LTC'],
  ['tltc', 'LTC'],
]);

const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** EIP-55: a mixed-case address capitalises each hex letter whose Keccak-256 nibble is 8 or more. */
export function eip55Checksummed(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = hexOf(keccak_256(Uint8Array.from(lower, (ch) => ch.charCodeAt(0))));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

function readEvm(value: string): CryptoAddressReading | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return undefined;
  const body = value.slice(2);
  // All one case carries no checksum (EIP-55 is optional); mixed case must be the checksummed spelling.
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && eip55Checksummed(value) !== value)
    return { chain: 'ETH', checksum: 'eip55', problem: 'EIP-55 checksum mismatch' };
  return { chain: 'ETH', checksum: 'eip55' };
}

function readSegwit(value: string): CryptoAddressReading | undefined {
  const lower = value.toLowerCase();
  if (value !== lower && value !== value.toUpperCase()) return undefined;
  const separator = lower.lastIndexOf('1');
  const chain = BECH32_CHAINS.get(lower.slice(0, separator));
  if (!chain) return undefined;
  const version = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.indexOf(lower[separator + 1] ?? '');
  // BIP 350: witness version 0 keeps Bech32, versions 1–16 use Bech32m.
  const checksum = version === 0 ? 'bech32' : 'bech32m';
  const decoded = (version === 0 ? bech32 : bech32m).decodeUnsafe(lower, 90);
  if (!decoded || version < 0 || version > 16) return { chain, checksum, problem: `${checksum} checksum mismatch` };
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  const length = program?.length ?? 0;
  const lengthOk = version === 0 ? length === 20 || length === 32 : length >= 2 && length <= 40;
  return lengthOk ? { chain, checksum } : { chain, checksum, problem: `witness program of ${length} bytes` };
}

function readBase58(value: string): CryptoAddressReading | undefined {
  if (!/^[1-9A-HJ-NP-Za-km-z]{25,36}$/.test(value)) return undefined;
  let payload: Uint8Array;
  try {
    payload = base58check.decode(value);
  } catch {
    // Only a string that already looks like a known chain's address is reported as a bad checksum.
    const chain = /^[13]/.test(value) ? 'XBT' : /^[LM]/.test(value) ? 'LTC' : /^T/.test(value) ? 'TRX' : undefined;
    return chain ? { chain, checksum: 'base58check', problem: 'Base58Check checksum mismatch' } : undefined;
  }
  const hex = hexOf(payload);
  const version = payload.length === 22 ? hex.slice(0, 4) : payload.length === 21 ? hex.slice(0, 2) : '';
  const chain = BASE58_VERSIONS.get(version);
  return chain ? { chain, checksum: 'base58check' } : undefined;
}

// CashAddr (Bitcoin Cash): Bech32's alphabet with a 40-bit BCH checksum over the prefix.
const CASHADDR_GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];

function cashaddrPolymod(values: readonly number[]): bigint {
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    CASHADDR_GENERATORS.forEach((g, i) => {
      if ((c0 >> BigInt(i)) & 1n) c ^= g;
    });
  }
  return c ^ 1n;
}

function readCashaddr(value: string): CryptoAddressReading | undefined {
  const lower = value.toLowerCase();
  const payload = lower.replace(/^bitcoincash:/, '');
  if (!/^[qp][qpzry9x8gf2tvdw0s3jn54khce6mua7l]{41}$/.test(payload)) return undefined;
  const words = Array.from(payload, (ch) => 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.indexOf(ch));
  const prefix = Array.from('bitcoincash', (ch) => ch.charCodeAt(0) & 31);
  return cashaddrPolymod([...prefix, 0, ...words]) === 0n
    ? { chain: 'BCH', checksum: 'cashaddr' }
    : { chain: 'BCH', checksum: 'cashaddr', problem: 'CashAddr checksum mismatch' };
}

function readMonero(value: string): CryptoAddressReading | undefined {
  if (!/^[48][1-9A-HJ-NP-Za-km-z]{94}$|^4[1-9A-HJ-NP-Za-km-z]{105}$/.test(value)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base58xmr.decode(value);
  } catch {
    return { chain: 'XMR', checksum: 'monero', problem: 'not Monero base58' };
  }
  // Network byte, spend and view keys (and a payment id for integrated addresses), then the
  // first 4 bytes of the Keccak-256 of everything before them.
  const body = bytes.slice(0, -4);
  const expected = keccak_256(body).slice(0, 4);
  const ok = expected.every((b, i) => b === bytes[bytes.length - 4 + i]);
  return ok
    ? { chain: 'XMR', checksum: 'monero' }
    : { chain: 'XMR', checksum: 'monero', problem: 'Monero checksum mismatch' };
}

/** The address format `value` is written in, with its checksum verdict; undefined when no known format fits. */
export function readCryptoAddress(value: string): CryptoAddressReading | undefined {
  const v = value.trim().replace(/^(?:bitcoin|litecoin|ethereum):/i, '');
  return readEvm(v) ?? readSegwit(v) ?? readCashaddr(v) ?? readMonero(v) ?? readBase58(v);
}

/**
 * The spelling an address is indexed and looked up by: hex (EVM addresses, Monero keys) and
 * Bech32/CashAddr are case-insensitive and lower-cased (so an EIP-55 checksummed address finds its
 * all-lower-case listing); Base58 is case-sensitive and kept as written. URI prefixes are dropped.
 */
export function normaliseCryptoAddress(value: string): string {
  const v = value.trim().replace(/^(?:bitcoin|litecoin|ethereum|bitcoincash):/i, '');
  if (/^0x[0-9a-fA-F]+$|^[0-9a-fA-F]{64}$/.test(v)) return v.toLowerCase();
  const reading = readSegwit(v) ?? readCashaddr(v);
  return reading ? v.toLowerCase() : v;
}
