import { Injectable } from '@nestjs/common';
import { Database, type Queryable } from '@vigil/platform';

@Injectable()
export class InvitationsRepository {
  constructor(private readonly db: Database) {}

  async create(codeHash: string, createdBy: string | null, expiresAt: Date): Promise<{ id: string; expires_at: Date }> {
    const rows: { id: string; expires_at: Date }[] = await this.db.query(
      `INSERT INTO invitation_codes (code_hash, created_by, expires_at) VALUES ($1, $2, $3) RETURNING id, expires_at`,
      [codeHash, createdBy, expiresAt],
    );
    return rows[0]!;
  }

  /** Uses the code if it is unused and unexpired; atomic, so one code makes one admin. */
  async consume(codeHash: string, userId: string, q: Queryable = this.db): Promise<boolean> {
    const rows: unknown[] = await q.query(
      `UPDATE invitation_codes SET used_at = now(), used_by = $2
        WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING id`,
      [codeHash, userId],
    );
    return rows.length > 0;
  }
}
