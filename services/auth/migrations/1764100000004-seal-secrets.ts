import { sealSecret } from '@vigil/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

// TOTP seeds (mfa_factors.secret) and the signing keys' private halves (signing_keys.private_jwk)
// were stored as they are unless AUTH_ENCRYPTION_KEY was set. This seals every value still
// stored plain, with the key migrate.js passes in (useSealingKey): the same format SecretBox and
// AccessTokens write, `enc:v1:…` and `{"sealed": "enc:v1:…"}`. Idempotent: sealed values are skipped.

let sealingKey: Buffer | undefined;

/** Set by migrate.js from the validated config before migrations run. */
export function useSealingKey(key: Buffer): void {
  sealingKey = key;
}

export class SealSecrets1764100000004 implements MigrationInterface {
  name = 'SealSecrets1764100000004';

  async up(q: QueryRunner): Promise<void> {
    const factors: { id: string; secret: string }[] = await q.query(
      `SELECT id, secret FROM mfa_factors WHERE secret NOT LIKE 'enc:v1:%'`,
    );
    const keys: { kid: string; private_jwk: unknown }[] = await q.query(
      `SELECT kid, private_jwk FROM signing_keys WHERE NOT (private_jwk ? 'sealed')`,
    );
    if (factors.length === 0 && keys.length === 0) return;
    // A fresh schema has nothing to seal; one with secrets needs the service's key.
    if (!sealingKey)
      throw new Error(
        'Sealing the stored secrets needs AUTH_ENCRYPTION_KEY: run the migrations with dist/src/migrate.js.',
      );
    for (const factor of factors) {
      await q.query(`UPDATE mfa_factors SET secret = $2 WHERE id = $1`, [
        factor.id,
        sealSecret(sealingKey, factor.secret),
      ]);
    }
    for (const key of keys) {
      const sealed = { sealed: sealSecret(sealingKey, JSON.stringify(key.private_jwk)) };
      await q.query(`UPDATE signing_keys SET private_jwk = $2 WHERE kid = $1`, [key.kid, JSON.stringify(sealed)]);
    }
  }

  async down(): Promise<void> {
    // Sealed values stay sealed: SecretBox reads them under any earlier version that had the key.
  }
}
