// Check digits of the identifier schemes that have one, written against their published
// definitions: IMO (SOLAS XI-1/3, IMO resolution A.1078(28)), ISO 7064 MOD 97-10 as used by
// ISO 13616 (IBAN) and ISO 17442 (LEI). Hand-written: each is a few lines of arithmetic and the
// npm packages that offer them bundle much more (country BBAN tables, formatting) we do not need.

/**
 * An IMO number: 7 digits whose last is a check digit. Ships' numbers weight the first six 7..2
 * and take the sum modulo 10; the IMO's unique company and registered-owner numbers (which OFAC
 * lists as "Identification Number IMO …" for shipping companies) weight them 8,6,4,2,9,7 and take
 * (11 − sum mod 11) mod 10. Either is an IMO number.
 */
export function imoCheckDigitValid(digits: string): boolean {
  if (!/^\d{7}$/.test(digits)) return false;
  const d = Array.from(digits, Number);
  const ship = [7, 6, 5, 4, 3, 2].reduce((sum, w, i) => sum + w * d[i]!, 0) % 10;
  const company = (11 - ([8, 6, 4, 2, 9, 7].reduce((sum, w, i) => sum + w * d[i]!, 0) % 11)) % 10;
  return d[6] === ship || d[6] === company;
}

/** ISO 7064 MOD 97-10 remainder of a string of digits and letters (A=10 … Z=35). */
export function mod97(text: string): number {
  let remainder = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? code - 55 : code - 48;
    if (value < 0 || value > 35) return -1;
    // Letters are two digits long; folding digit by digit keeps the number small.
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** LEI (ISO 17442): 18 alphanumerics and 2 check digits; the whole code is 1 modulo 97. */
export function leiValid(lei: string): boolean {
  return /^[A-Z0-9]{18}\d{2}$/.test(lei) && mod97(lei) === 1;
}

/** IBAN (ISO 13616): country, 2 check digits, up to 30 alphanumerics; moved to the end, 1 modulo 97. */
export function ibanValid(iban: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}
