import { Injectable } from '@nestjs/common';
import type { JWK } from 'jose';
import { Database } from '@vigil/platform';

export type StoredKey = { kid: string; privateJwk: JWK; publicJwk: JWK };

@Injectable()
export class SigningKeysRepository {
  constructor(private readonly db: Database) {}

  async active(): Promise<StoredKey[]> {
    const rows: { kid: string; private_jwk: JWK; public_jwk: JWK }[] = await this.db.query(
      `SELECT kid, private_jwk, public_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid`,
    );
    return rows.map((r) => ({ kid: r.kid, privateJwk: r.private_jwk, publicJwk: r.public_jwk }));
  }

  /**
   * Returns the newest active key, creating one with `generate` if there is none.
   * An advisory lock stops two replicas booting together from making two keys.
   */
  async ensure(generate: () => Promise<StoredKey>, algorithm: string): Promise<StoredKey[]> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('vigil.auth.signing_keys'))`);
      const existing: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM signing_keys WHERE retired_at IS NULL`);
      if (existing[0]!.n === 0) {
        const key = await generate();
        await tx.query(`INSERT INTO signing_keys (kid, algorithm, private_jwk, public_jwk) VALUES ($1, $2, $3, $4)`, [
          key.kid,
          algorithm,
          JSON.stringify(key.privateJwk),
          JSON.stringify(key.publicJwk),
        ]);
      }
      const rows: { kid: string; private_jwk: JWK; public_jwk: JWK }[] = await tx.query(
        `SELECT kid, private_jwk, public_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid`,
      );
      return rows.map((r) => ({ kid: r.kid, privateJwk: r.private_jwk, publicJwk: r.public_jwk }));
    });
  }
}
