import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit tables: each is append-only, chained and has a `hash` column. */
export const AUDIT_TABLES = [
  'security_events',
  'screening_events',
  'review_decisions',
  'admin_actions',
  'retention_checkpoints',
] as const;
/** What the service runs as (SET ROLE at connect): SELECT and INSERT on the audit tables, nothing else. */
export const APPEND_ROLE = 'vigil_audit_append';
/** What only the retention job runs as: DELETE on the expired rows' tables, INSERT of checkpoints. */
export const RETENTION_ROLE = 'vigil_audit_retention';

const CHAIN_COLUMNS = `
  recorded_at timestamptz NOT NULL DEFAULT now(),
  chain_id    text        NOT NULL,
  chain_seq   bigint      NOT NULL,
  prev_hash   text        NOT NULL,
  hash        text        NOT NULL,
  UNIQUE (chain_id, chain_seq)`;

// The audit trail. Every row belongs to a chain (one per client, "client:<id>"; "platform" for
// security events and admin actions on no client; "retention" for checkpoints) and carries
// hash = sha256(prev_hash ‖ canonical JSON of the row), the canonical JSON being Postgres's
// normalised jsonb text of the row without its hash, written with TimeZone UTC. A BEFORE INSERT
// trigger assigns chain_seq, prev_hash and hash under a row lock on the chain's head, so two
// writers never fork a chain whatever they run; another trigger refuses UPDATE, TRUNCATE and any
// DELETE but the retention job's. The service itself runs as a role that has no UPDATE or DELETE.
export class AuditTrail1764200000000 implements MigrationInterface {
  name = 'AuditTrail1764200000000';

  async up(q: QueryRunner): Promise<void> {
    const schema = ((await q.query('SELECT current_schema() AS schema')) as Array<{ schema: string }>)[0]!.schema;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);

    await q.query(`
      CREATE TABLE chain_heads (
        chain_id text   PRIMARY KEY,
        seq      bigint NOT NULL,
        hash     text   NOT NULL
      )`);
    await q.query(`
      CREATE TABLE security_events (
        seq         bigserial   PRIMARY KEY,
        event_id    uuid        NOT NULL UNIQUE,
        event_type  text        NOT NULL CHECK (event_type IN ('ADMIN_ACCESS', 'CLIENT_ACCESS', 'FAILED_AUTH', 'RATE_LIMIT_VIOLATION', 'SUSPICIOUS_ACTIVITY')),
        occurred_at timestamptz NOT NULL,
        ip          text,
        endpoint    text        NOT NULL,
        method      text,
        admin_email text,
        client_name text,
        client_id   text,
        actor_id    text,
        request_id  text,
        reason      text,
        ${CHAIN_COLUMNS}
      )`);
    await q.query('CREATE INDEX security_events_time ON security_events (occurred_at DESC, seq DESC)');
    await q.query('CREATE INDEX security_events_type_time ON security_events (event_type, occurred_at DESC)');
    await q.query(`
      CREATE TABLE screening_events (
        seq           bigserial   PRIMARY KEY,
        event_id      text        NOT NULL UNIQUE,
        screening_id  text        NOT NULL,
        kind          text        NOT NULL,
        client_id     text        NOT NULL,
        tier          text        NOT NULL,
        actor_id      text        NOT NULL,
        request_id    text,
        searched_name text,
        searched_email text,
        match_found   boolean     NOT NULL,
        status        text        NOT NULL,
        score         numeric     NOT NULL,
        top_entity_id text,
        matched_name  text,
        source_list   text,
        is_alert      boolean     NOT NULL,
        list_versions jsonb       NOT NULL,
        occurred_at   timestamptz NOT NULL,
        ${CHAIN_COLUMNS}
      )`);
    await q.query('CREATE INDEX screening_events_time ON screening_events (occurred_at)');
    await q.query(`
      CREATE TABLE review_decisions (
        seq              bigserial   PRIMARY KEY,
        event_id         text        NOT NULL UNIQUE,
        review_id        text        NOT NULL,
        screening_log_id text        NOT NULL,
        client_id        text        NOT NULL,
        decision         text        NOT NULL,
        actor_id         text,
        occurred_at      timestamptz NOT NULL,
        ${CHAIN_COLUMNS}
      )`);
    await q.query('CREATE INDEX review_decisions_time ON review_decisions (occurred_at)');
    await q.query(`
      CREATE TABLE admin_actions (
        seq         bigserial   PRIMARY KEY,
        event_id    uuid        NOT NULL UNIQUE,
        action      text        NOT NULL,
        actor_id    text        NOT NULL,
        actor_email text,
        client_id   text,
        client_name text,
        ip          text,
        endpoint    text        NOT NULL,
        request_id  text,
        details     jsonb       NOT NULL,
        occurred_at timestamptz NOT NULL,
        ${CHAIN_COLUMNS}
      )`);
    await q.query('CREATE INDEX admin_actions_time ON admin_actions (occurred_at)');
    // A removed segment [from_seq, to_seq] of target_chain: its first row's prev_hash and its last
    // row's hash, so the verifier can bridge the gap. Checkpoints form the "retention" chain.
    await q.query(`
      CREATE TABLE retention_checkpoints (
        seq               bigserial   PRIMARY KEY,
        target_chain      text        NOT NULL,
        from_seq          bigint      NOT NULL,
        to_seq            bigint      NOT NULL,
        segment_prev_hash text        NOT NULL,
        segment_end_hash  text        NOT NULL,
        rows_removed      integer     NOT NULL,
        removed           jsonb       NOT NULL,
        occurred_at       timestamptz NOT NULL,
        ${CHAIN_COLUMNS},
        UNIQUE (target_chain, from_seq)
      )`);

    // SECURITY DEFINER: the service's role may not touch chain_heads itself.
    await q.query(`
      CREATE FUNCTION audit_chain_append() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = "${schema}", pg_temp SET "TimeZone" = 'UTC' AS $$
      DECLARE
        head record;
      BEGIN
        INSERT INTO chain_heads (chain_id, seq, hash) VALUES (NEW.chain_id, 0, repeat('0', 64))
          ON CONFLICT (chain_id) DO NOTHING;
        SELECT seq, hash INTO head FROM chain_heads WHERE chain_id = NEW.chain_id FOR UPDATE;
        NEW.chain_seq := head.seq + 1;
        NEW.prev_hash := head.hash;
        NEW.hash := NULL;
        NEW.hash := encode(sha256(convert_to(head.hash || (to_jsonb(NEW) - 'hash')::text, 'UTF8')), 'hex');
        UPDATE chain_heads SET seq = NEW.chain_seq, hash = NEW.hash WHERE chain_id = NEW.chain_id;
        RETURN NEW;
      END $$`);
    // Heads locked in one order before a batch appends, so two batches never deadlock.
    await q.query(`
      CREATE FUNCTION audit_lock_chains(chains text[]) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = "${schema}", pg_temp AS $$
      BEGIN
        INSERT INTO chain_heads (chain_id, seq, hash)
          SELECT c, 0, repeat('0', 64) FROM unnest(chains) AS c ORDER BY c COLLATE "C"
          ON CONFLICT (chain_id) DO NOTHING;
        PERFORM 1 FROM chain_heads WHERE chain_id = ANY (chains) ORDER BY chain_id COLLATE "C" FOR UPDATE;
      END $$`);
    await q.query(`
      CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND TG_TABLE_NAME <> 'retention_checkpoints'
           AND current_user = '${RETENTION_ROLE}' AND current_setting('vigil.audit_retention', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit.%: % refused: the audit trail is append-only', TG_TABLE_NAME, TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of AUDIT_TABLES) {
      await q.query(
        `CREATE TRIGGER ${table}_chain BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION audit_chain_append()`,
      );
      await q.query(
        `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()`,
      );
      await q.query(
        `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()`,
      );
    }
    await grantRoles(q, schema);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...AUDIT_TABLES].reverse()) await q.query(`DROP TABLE ${table}`);
    await q.query('DROP TABLE chain_heads');
    await q.query('DROP FUNCTION audit_chain_append(), audit_lock_chains(text[]), audit_refuse_change()');
  }
}

/**
 * The two group roles (cluster-wide, created once, NOLOGIN) and this schema's grants. Idempotent
 * and safe when several schemas migrate at once. A per-service login role is made a member of
 * both so the service can SET ROLE; a superuser needs no membership.
 */
export async function grantRoles(q: Pick<QueryRunner, 'query'>, schema: string): Promise<void> {
  for (const role of [APPEND_ROLE, RETENTION_ROLE]) {
    await q.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN
          CREATE ROLE ${role} NOLOGIN;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`);
  }
  const chained = AUDIT_TABLES.filter((t) => t !== 'retention_checkpoints').join(', ');
  await q.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${APPEND_ROLE}, ${RETENTION_ROLE}`);
  await q.query(`GRANT SELECT, INSERT ON ${chained} TO ${APPEND_ROLE}`);
  await q.query(`GRANT SELECT ON chain_heads, retention_checkpoints TO ${APPEND_ROLE}`);
  await q.query(`GRANT SELECT, DELETE ON ${chained} TO ${RETENTION_ROLE}`);
  await q.query(`GRANT SELECT, INSERT ON retention_checkpoints TO ${RETENTION_ROLE}`);
  await q.query(`GRANT SELECT ON chain_heads TO ${RETENTION_ROLE}`);
  await q.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA "${schema}" TO ${APPEND_ROLE}, ${RETENTION_ROLE}`);
  await q.query(`GRANT EXECUTE ON FUNCTION audit_lock_chains(text[]) TO ${APPEND_ROLE}, ${RETENTION_ROLE}`);
  await q.query(`
    DO $$ BEGIN
      IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE format('GRANT ${APPEND_ROLE}, ${RETENTION_ROLE} TO %I', current_user);
      END IF;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'could not grant the audit roles to %: grant them to the service''s login role', current_user;
    END $$`);
}
