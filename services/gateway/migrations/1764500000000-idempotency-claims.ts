import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency claims held by a heartbeat: a pending record is renewed by the replica running its
 * request, so a dead replica's claim can be taken over seconds after its last renewal instead of a
 * minute after its creation, while a long request that is still running keeps its claim.
 * - `renewed_at`: the holder's last heartbeat (database clock); rows that predate this migration
 *   count from it, so an old replica's pending claim lapses one takeover time after the upgrade.
 * - `claim`: which attempt holds the record, so an attempt whose claim was taken over cannot
 *   renew, complete or delete the record of the attempt that took it.
 */
export class IdempotencyClaims1764500000000 implements MigrationInterface {
  name = 'IdempotencyClaims1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE idempotency_keys ADD COLUMN renewed_at timestamptz NOT NULL DEFAULT now(), ADD COLUMN claim uuid`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN claim, DROP COLUMN renewed_at`);
  }
}
