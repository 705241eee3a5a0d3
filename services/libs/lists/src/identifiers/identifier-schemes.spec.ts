import { validUnlistedAddresses } from '../testing/valid-addresses.js';
import { ibanValid, imoCheckDigitValid, leiValid } from './check-digits.js';
import { eip55Checksummed, normaliseCryptoAddress, readCryptoAddress } from './crypto-addresses.js';
import {
  identifierKey,
  identifierProblem,
  looksLikeCryptoAddress,
  normaliseIdentifierValue,
} from './identifier-schemes.js';

// Vectors from the published specifications, cited per block.

describe('check digits', () => {
  it('IMO ship numbers (SOLAS XI-1/3) and company/owner numbers', () => {
    expect(imoCheckDigitValid('9074729')).toBe(true); // the IMO's worked example
    expect(imoCheckDigitValid('9187629')).toBe(true); // OFAC-listed vessel
    expect(imoCheckDigitValid('5342883')).toBe(true); // OFAC-listed company number
    expect(imoCheckDigitValid('9074728')).toBe(false);
    expect(imoCheckDigitValid('907472')).toBe(false);
  });

  it('LEI (ISO 17442, ISO 7064 MOD 97-10)', () => {
    expect(leiValid('5493001KJTIIGC8Y1R12')).toBe(true);
    expect(leiValid('529900T8BM49AURSDO55')).toBe(true);
    expect(leiValid('5493001KJTIIGC8Y1R13')).toBe(false);
    expect(leiValid('851683897')).toBe(false);
  });

  it('IBAN (ISO 13616)', () => {
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(normaliseIdentifierValue('iban', 'gb82 west 1234 5698 7654 32')).toBe('GB82WEST12345698765432');
  });
});

describe('digital-currency addresses', () => {
  it.each([
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'XBT', 'base58check'], // Bitcoin wiki, P2PKH
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'XBT', 'base58check'], // BIP 13, P2SH
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'XBT', 'bech32'], // BIP 173
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'XBT', 'bech32m'], // BIP 350
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'ETH', 'eip55'], // EIP-55
    ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', 'ETH', 'eip55'], // EIP-55
    ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', 'BCH', 'cashaddr'], // CashAddr spec
    ['LaizKtS5DUhPuP1nTQcc83MS7HwK6vk85z', 'LTC', 'base58check'], // SDN-listed
    ['TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG', 'TRX', 'base58check'], // SDN-listed
    ['XnPFsRWTaSgiVauosEwQ6dEitGYXgwznz2', 'DASH', 'base58check'], // SDN-listed
    ['t1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL', 'ZEC', 'base58check'], // SDN-listed
    [
      '49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL',
      'XMR',
      'monero',
    ], // SDN-listed
  ])('reads %s as a valid %s address (%s)', (address, chain, checksum) => {
    expect(readCryptoAddress(address)).toEqual({ chain, checksum });
    expect(identifierProblem('crypto-address', address)).toBeUndefined();
  });

  it.each([
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'Base58Check checksum mismatch'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'bech32 checksum mismatch'], // BIP 350: v0 with a Bech32m checksum
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'EIP-55 checksum mismatch'],
    ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6q', 'CashAddr checksum mismatch'],
  ])('finds the checksum of %s wrong', (address, problem) => {
    expect(readCryptoAddress(address)?.problem).toBe(problem);
    expect(identifierProblem('crypto-address', address)).toBe(problem);
  });

  it('keys EVM and Bech32 addresses case-insensitively and Base58 case-sensitively', () => {
    expect(normaliseCryptoAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    );
    expect(identifierKey('crypto-address', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'crypto-address:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(normaliseCryptoAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    expect(eip55Checksummed('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
  });

  it('tells a wallet address typed as a name from a name', () => {
    expect(looksLikeCryptoAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true);
    expect(looksLikeCryptoAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    expect(looksLikeCryptoAddress('Viktor Anatolyevich Bout')).toBe(false);
    expect(looksLikeCryptoAddress('AEROCARIBBEAN')).toBe(false);
    expect(looksLikeCryptoAddress('Wolfeschlegelsteinhausenbergerdorff')).toBe(false);
  });

  it('generates unlisted addresses that all pass their checksums', () => {
    const addresses = validUnlistedAddresses(5);
    expect(addresses).toHaveLength(35);
    for (const a of addresses) expect(readCryptoAddress(a)?.problem).toBeUndefined();
    expect(new Set(addresses.map((a) => readCryptoAddress(a)?.chain))).toEqual(new Set(['XBT', 'ETH', 'LTC', 'TRX']));
  });
});

describe('document numbers and codes', () => {
  it('normalises separators and case, and a head-office BIC to its 8 characters', () => {
    expect(normaliseIdentifierValue('passport', 'ab 123-456.')).toBe('AB123456');
    expect(normaliseIdentifierValue('imo', 'IMO 9187629')).toBe('9187629');
    expect(normaliseIdentifierValue('swift-bic', 'sabrrummxxx')).toBe('SABRRUMM');
    expect(identifierProblem('swift-bic', 'SABRRUMM')).toBeUndefined();
    expect(identifierProblem('imo', '9187628')).toMatch(/check digit/);
    expect(identifierProblem('mmsi', '24941700')).toMatch(/9 digits/);
  });
});
