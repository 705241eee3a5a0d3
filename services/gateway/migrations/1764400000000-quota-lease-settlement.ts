import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quota leases settled to the screens answered under them (issue #24): each lease row has an id
 * that every screen under it carries to screening, which logs the screen under it. A lease that is
 * given back or expires is settled to `fixed` + the screens screening logged under its id, so a
 * client is charged exactly for what was answered, however its replicas died.
 * - `lease_id`: the row's identity; a holder's expired row awaiting settlement and its new one
 *   can exist side by side, so it is the key (not client, period and holder).
 * - `served` (was `promised`): what the holder had counted at its last renewal, for live usage
 *   figures only; settlement does not trust it.
 * - `fixed`: names charged whatever screening logs under the lease (accepted bulk jobs, whose
 *   names are screened later by the bulk worker, outside any lease); a job remembers its lease
 *   (`bulk_jobs.quota_lease`) so one that could not be queued takes its charge back.
 */
export class QuotaLeaseSettlement1764400000000 implements MigrationInterface {
  name = 'QuotaLeaseSettlement1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quota_leases RENAME COLUMN promised TO served`);
    await q.query(`ALTER TABLE quota_leases ADD COLUMN lease_id uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE quota_leases DROP CONSTRAINT quota_leases_pkey`);
    await q.query(`ALTER TABLE quota_leases ADD PRIMARY KEY (lease_id)`);
    await q.query(`CREATE INDEX quota_leases_client ON quota_leases (client_id, period)`);
    await q.query(
      `ALTER TABLE quota_leases ADD COLUMN fixed integer NOT NULL DEFAULT 0, ADD CONSTRAINT quota_leases_fixed CHECK (fixed >= 0 AND fixed <= granted)`,
    );
    await q.query(`ALTER TABLE bulk_jobs ADD COLUMN quota_lease uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE bulk_jobs DROP COLUMN quota_lease`);
    await q.query(`ALTER TABLE quota_leases DROP COLUMN fixed`);
    await q.query(`DROP INDEX quota_leases_client`);
    await q.query(`ALTER TABLE quota_leases DROP CONSTRAINT quota_leases_pkey`);
    await q.query(`ALTER TABLE quota_leases DROP COLUMN lease_id`);
    await q.query(`ALTER TABLE quota_leases ADD PRIMARY KEY (client_id, period, holder)`);
    await q.query(`ALTER TABLE quota_leases RENAME COLUMN served TO promised`);
  }
}
