import type { MigrationInterface, QueryRunner } from 'typeorm';

// Ongoing monitoring: monitored entities (added by hand or entries of a client list), the alerts
// they raise, the re-screening record that makes each list version's delta idempotent per
// monitored entity, the client's snapshot and settings, and webhooks with a durable delivery queue.
export class Monitoring1764100000000 implements MigrationInterface {
  name = 'Monitoring1764100000000';

  async up(q: QueryRunner): Promise<void> {
    // The client as the gateway last resolved it: background re-screens use its feeds and thresholds.
    await q.query(`
      CREATE TABLE monitoring_clients (
        client_id               text        PRIMARY KEY,
        tier                    text        NOT NULL,
        feeds                   text[]      NOT NULL,
        thresholds              jsonb       NOT NULL,
        default_check_frequency text        NOT NULL DEFAULT 'daily'
                                CHECK (default_check_frequency IN ('daily', 'weekly', 'monthly')),
        rescreen_on_list_update boolean     NOT NULL DEFAULT true,
        alert_on_review         boolean     NOT NULL DEFAULT true,
        updated_at              timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE monitored_entities (
        id                   uuid        PRIMARY KEY,
        client_id            text        NOT NULL REFERENCES monitoring_clients (client_id),
        entity_name          text        NOT NULL,
        entity_email         text,
        entity_aliases       text[]      NOT NULL DEFAULT '{}',
        check_frequency      text        NOT NULL CHECK (check_frequency IN ('daily', 'weekly', 'monthly')),
        notes                text,
        monitoring_status    text        NOT NULL DEFAULT 'active'
                             CHECK (monitoring_status IN ('active', 'paused', 'stopped')),
        origin               text        NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'client_list')),
        client_list_id       uuid        REFERENCES client_lists (id) ON DELETE CASCADE,
        client_list_entry_id uuid        UNIQUE REFERENCES client_list_entries (id) ON DELETE CASCADE,
        last_checked         timestamptz,
        next_check_due       timestamptz,
        claimed_until        timestamptz,
        screening_status     text        NOT NULL DEFAULT 'unknown'
                             CHECK (screening_status IN ('sanctioned', 'review', 'clear', 'unknown')),
        screening_score      double precision,
        screening_source     text,
        screening_details    text,
        created_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX monitored_entities_client ON monitored_entities (client_id, created_at DESC, id)');
    await q.query(
      'CREATE INDEX monitored_entities_list ON monitored_entities (client_list_id) WHERE client_list_id IS NOT NULL',
    );
    await q.query(
      `CREATE INDEX monitored_entities_due ON monitored_entities (next_check_due) WHERE monitoring_status = 'active'`,
    );
    await q.query(`
      CREATE TABLE monitoring_alerts (
        id                      uuid        PRIMARY KEY,
        client_id               text        NOT NULL,
        monitored_entity_id     uuid        REFERENCES monitored_entities (id) ON DELETE SET NULL,
        entity_name             text        NOT NULL,
        matched_entity_id       text        NOT NULL,
        matched_sanctioned_name text        NOT NULL,
        match_score             double precision NOT NULL,
        match_status            text        NOT NULL CHECK (match_status IN ('blocked', 'review')),
        match_source            text        NOT NULL,
        match_fingerprint       text        NOT NULL,
        alert_type              text        NOT NULL CHECK (alert_type IN ('new_match', 'changed_match', 'check_match')),
        severity                text        NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
        alert_message           text        NOT NULL,
        list_source             text,
        list_version_id         integer,
        triggered_at            timestamptz NOT NULL DEFAULT now(),
        is_acknowledged         boolean     NOT NULL DEFAULT false,
        acknowledged_at         timestamptz,
        closed_at               timestamptz,
        closed_note             text
      )`);
    // One open alert per monitored entity and list entity: an unchanged match (acknowledged or not)
    // is never raised twice, whoever races to raise it.
    await q.query(
      `CREATE UNIQUE INDEX monitoring_alerts_open_match ON monitoring_alerts (monitored_entity_id, matched_entity_id)
        WHERE closed_at IS NULL`,
    );
    await q.query('CREATE INDEX monitoring_alerts_client ON monitoring_alerts (client_id, triggered_at DESC, id)');
    await q.query(
      'CREATE INDEX monitoring_alerts_matched ON monitoring_alerts (matched_entity_id) WHERE closed_at IS NULL',
    );
    // A list version's delta is re-screened at most once per monitored entity: a redelivered
    // lists.v1.updated (or a replica killed half-way) finds the entities already done here.
    await q.query(`
      CREATE TABLE rescreen_checks (
        list_source         text        NOT NULL,
        version_id          integer     NOT NULL,
        monitored_entity_id uuid        NOT NULL REFERENCES monitored_entities (id) ON DELETE CASCADE,
        checked_at          timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (list_source, version_id, monitored_entity_id)
      )`);
    await q.query(`
      CREATE TABLE list_updates_processed (
        list_source   text        NOT NULL,
        version_id    integer     NOT NULL,
        event_id      text        NOT NULL,
        delta_names   integer     NOT NULL,
        candidates    integer     NOT NULL,
        alerts_raised integer     NOT NULL,
        alerts_closed integer     NOT NULL,
        duration_ms   integer     NOT NULL,
        phases_ms     jsonb       NOT NULL DEFAULT '{}',
        processed_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (list_source, version_id)
      )`);
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id              uuid        PRIMARY KEY,
        client_id       text        NOT NULL,
        url             text        NOT NULL,
        event_types     text[]      NOT NULL,
        description     text,
        secret          text        NOT NULL,
        enabled         boolean     NOT NULL DEFAULT true,
        disabled_reason text,
        created_at      timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX webhook_endpoints_client ON webhook_endpoints (client_id, created_at DESC)');
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id              uuid        PRIMARY KEY,
        endpoint_id     uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        client_id       text        NOT NULL,
        event_type      text        NOT NULL,
        event_key       text        NOT NULL,
        payload         jsonb       NOT NULL,
        status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempt_count   integer     NOT NULL DEFAULT 0,
        next_attempt_at timestamptz DEFAULT now(),
        claimed_until   timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        delivered_at    timestamptz,
        UNIQUE (endpoint_id, event_key)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(`
      CREATE TABLE webhook_attempts (
        delivery_id  uuid        NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt      integer     NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        status_code  integer,
        error        text,
        duration_ms  integer     NOT NULL,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
      'list_updates_processed',
      'rescreen_checks',
      'monitoring_alerts',
      'monitored_entities',
      'monitoring_clients',
    ])
      await q.query(`DROP TABLE ${table}`);
  }
}
