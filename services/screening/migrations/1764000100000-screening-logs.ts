import type { MigrationInterface, QueryRunner } from 'typeorm';

// What every screening leaves behind: the log (one row per screened name), a sanction
// alert when the top result is blocked, a pending review when it needs a human.
// Alerts and reviews are unique per log row, so a retried write cannot double them.
export class ScreeningLogs1764000100000 implements MigrationInterface {
  name = 'ScreeningLogs1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE screening_logs (
        id                  uuid         PRIMARY KEY,
        kind                text         NOT NULL CHECK (kind IN ('single', 'bulk')),
        client_id           text         NOT NULL,
        tier                text         NOT NULL,
        request_id          text,
        searched_name       text,
        searched_email      text,
        match_found         boolean      NOT NULL,
        status              text         NOT NULL CHECK (status IN ('blocked', 'review', 'clear')),
        score               numeric(5,4) NOT NULL CHECK (score >= 0 AND score <= 1),
        confidence          text         NOT NULL,
        top_entity_id       text,
        matched_entity_name text,
        source_list         text,
        is_alert            boolean      NOT NULL,
        feeds               text[]       NOT NULL,
        list_versions       jsonb        NOT NULL,
        created_at          timestamptz  NOT NULL
      )`);
    await q.query('CREATE INDEX screening_logs_client ON screening_logs (client_id, created_at DESC)');
    await q.query(`
      CREATE TABLE sanction_alerts (
        id                uuid         PRIMARY KEY,
        screening_log_id  uuid         NOT NULL UNIQUE REFERENCES screening_logs (id),
        client_id         text         NOT NULL,
        full_name         text,
        email             text,
        matched_entity_id text         NOT NULL,
        matched_name      text         NOT NULL,
        match_reason      text         NOT NULL,
        confidence        text         NOT NULL,
        risk_score        numeric(5,4) NOT NULL,
        triggered_at      timestamptz  NOT NULL,
        reviewed          boolean      NOT NULL DEFAULT false
      )`);
    await q.query('CREATE INDEX sanction_alerts_client ON sanction_alerts (client_id, triggered_at DESC)');
    await q.query(`
      CREATE TABLE pending_reviews (
        id                uuid         PRIMARY KEY,
        screening_log_id  uuid         NOT NULL UNIQUE REFERENCES screening_logs (id),
        client_id         text         NOT NULL,
        searched_input    text         NOT NULL,
        status            text         NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'blocked')),
        confidence        text         NOT NULL,
        screening_score   numeric(5,4) NOT NULL,
        matched_entity_id text         NOT NULL,
        created_at        timestamptz  NOT NULL,
        decided_at        timestamptz
      )`);
    await q.query('CREATE INDEX pending_reviews_client ON pending_reviews (client_id, status, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE pending_reviews');
    await q.query('DROP TABLE sanction_alerts');
    await q.query('DROP TABLE screening_logs');
  }
}
