import type { MigrationInterface, QueryRunner } from 'typeorm';

// The list side: sources, their versions, the entities they carry (keyed by source and
// source id, stamped with the versions that added, changed and removed them), the
// per-version delta, refresh failures, and the outbox that makes event publication
// survive a crash between commit and publish.
export class Lists1764000000000 implements MigrationInterface {
  name = 'Lists1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sources (
        source             text        PRIMARY KEY,
        name               text        NOT NULL,
        publisher          text        NOT NULL,
        description        text        NOT NULL,
        feed               text        NOT NULL,
        dataset            text        NOT NULL,
        list_id            text        NOT NULL,
        location           text        NOT NULL,
        format             text        NOT NULL,
        files              jsonb       NOT NULL,
        refresh_minutes    integer     NOT NULL CHECK (refresh_minutes > 0),
        enabled            boolean     NOT NULL DEFAULT true,
        current_version_id bigint,
        lease_owner        text,
        lease_until        timestamptz,
        last_checked_at    timestamptz,
        last_error         text,
        last_error_at      timestamptz,
        updated_at         timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE list_versions (
        id                  bigserial   PRIMARY KEY,
        source              text        NOT NULL REFERENCES sources (source),
        previous_version_id bigint      REFERENCES list_versions (id),
        fetched_at          timestamptz NOT NULL,
        sha256              text        NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        entity_count        integer     NOT NULL CHECK (entity_count >= 0),
        file_size           bigint      NOT NULL CHECK (file_size >= 0),
        files               jsonb       NOT NULL,
        format              text        NOT NULL,
        parser_version      text        NOT NULL,
        added               integer     NOT NULL,
        changed             integer     NOT NULL,
        removed             integer     NOT NULL,
        duplicates          integer     NOT NULL DEFAULT 0,
        trigger             text        NOT NULL,
        created_at          timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX list_versions_source ON list_versions (source, id DESC)');
    await q.query('ALTER TABLE sources ADD CONSTRAINT sources_current_version_fk FOREIGN KEY (current_version_id) REFERENCES list_versions (id)');
    await q.query(`
      CREATE TABLE entities (
        source             text   NOT NULL REFERENCES sources (source),
        source_id          text   NOT NULL,
        entity_type        text   NOT NULL,
        primary_name       text   NOT NULL,
        search_text        text   NOT NULL,
        data               jsonb  NOT NULL,
        content_hash       text   NOT NULL,
        added_version_id   bigint NOT NULL REFERENCES list_versions (id),
        changed_version_id bigint REFERENCES list_versions (id),
        removed_version_id bigint REFERENCES list_versions (id),
        PRIMARY KEY (source, source_id)
      )`);
    await q.query('CREATE INDEX entities_live ON entities (source, source_id) WHERE removed_version_id IS NULL');
    await q.query(`
      CREATE TABLE entity_changes (
        version_id bigint NOT NULL REFERENCES list_versions (id),
        source_id  text   NOT NULL,
        change     text   NOT NULL CHECK (change IN ('added', 'changed', 'removed')),
        PRIMARY KEY (version_id, source_id)
      )`);
    await q.query(`
      CREATE TABLE ingestion_failures (
        id                 bigserial   PRIMARY KEY,
        source             text        NOT NULL REFERENCES sources (source),
        stage              text        NOT NULL CHECK (stage IN ('fetch', 'parse', 'validate', 'store')),
        error              text        NOT NULL,
        sha256             text,
        serving_version_id bigint      REFERENCES list_versions (id),
        trigger            text        NOT NULL,
        failed_at          timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX ingestion_failures_source ON ingestion_failures (source, failed_at DESC)');
    await q.query(`
      CREATE TABLE outbox (
        id           uuid        PRIMARY KEY,
        subject      text        NOT NULL,
        payload      jsonb       NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz,
        attempts     integer     NOT NULL DEFAULT 0,
        last_error   text
      )`);
    await q.query('CREATE INDEX outbox_unpublished ON outbox (created_at) WHERE published_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox');
    await q.query('DROP TABLE ingestion_failures');
    await q.query('DROP TABLE entity_changes');
    await q.query('DROP TABLE entities');
    await q.query('ALTER TABLE sources DROP CONSTRAINT sources_current_version_fk');
    await q.query('DROP TABLE list_versions');
    await q.query('DROP TABLE sources');
  }
}
