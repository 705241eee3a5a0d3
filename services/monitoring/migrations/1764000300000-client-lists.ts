import type { MigrationInterface, QueryRunner } from 'typeorm';

// Client lists: a client's own customers, uploaded as CSV, that monitoring re-screens when
// the official lists change. Every row carries or hangs off client_id, and every query is
// bounded by it. Upload parts are staged here because a 10 MB file does not fit in one
// NATS message; they live minutes, not days.
export class ClientLists1764000300000 implements MigrationInterface {
  name = 'ClientLists1764000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE client_lists (
        id          uuid        PRIMARY KEY,
        client_id   text        NOT NULL,
        name        text        NOT NULL,
        description text,
        file_name   text        NOT NULL,
        entry_count integer     NOT NULL CHECK (entry_count >= 0),
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX client_lists_client ON client_lists (client_id, created_at DESC)');
    await q.query(`
      CREATE TABLE client_list_entries (
        list_id    uuid        NOT NULL REFERENCES client_lists (id) ON DELETE CASCADE,
        row_number integer     NOT NULL,
        id         uuid        NOT NULL UNIQUE,
        name       text        NOT NULL,
        email      text,
        aliases    text[]      NOT NULL DEFAULT '{}',
        added_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (list_id, row_number)
      )`);
    await q.query(`
      CREATE TABLE client_list_upload_parts (
        upload_id  uuid        NOT NULL,
        part       integer     NOT NULL CHECK (part >= 0),
        client_id  text        NOT NULL,
        data       bytea       NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, part)
      )`);
    await q.query('CREATE INDEX client_list_upload_parts_age ON client_list_upload_parts (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE client_list_upload_parts');
    await q.query('DROP TABLE client_list_entries');
    await q.query('DROP TABLE client_lists');
  }
}
