#!/usr/bin/env node
// `node infra/scripts/totp.mjs <base32 secret>` prints the current 6-digit code of an authenticator
// secret: the demo admin's (`npm start` prints it; every admin route needs a second factor) on a
// machine without an authenticator app, and the browser tests' code step.
import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app shows now for `secret` (auth's TOTP: SHA-1, 6 digits, 30 s). */
export function currentCode(secret, at = Date.now()) {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.argv[2];
  if (!secret) {
    process.stderr.write('usage: node infra/scripts/totp.mjs <base32 secret>\n');
    process.exit(64);
  }
  process.stdout.write(`${currentCode(secret)}\n`);
}
