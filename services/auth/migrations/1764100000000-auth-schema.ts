import type { MigrationInterface, QueryRunner } from 'typeorm';

// The whole auth schema in one step: these tables only make sense together.
// Secrets are never stored in a form that can be presented back: passwords as
// argon2id, refresh/reset/confirmation/invitation/recovery tokens and API keys
// as SHA-256 of a high-entropy random value.
export class AuthSchema1764100000000 implements MigrationInterface {
  name = 'AuthSchema1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clients (
        id                  uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        client_name         text        NOT NULL CHECK (length(client_name) > 0),
        contact_email       text,
        tier                text        NOT NULL CHECK (tier IN ('starter', 'small', 'medium', 'large')),
        subscription_status text        NOT NULL DEFAULT 'active'
                                        CHECK (subscription_status IN ('active', 'payment_failed', 'cancelled', 'past_due')),
        threshold_config    jsonb,
        quota_month         integer     NOT NULL CHECK (quota_month >= 0),
        usage_month         integer     NOT NULL DEFAULT 0 CHECK (usage_month >= 0),
        created_at          timestamptz NOT NULL DEFAULT now(),
        updated_at          timestamptz NOT NULL DEFAULT now()
      )`);
    // billing provisions one client per contact email; the index keeps a retried provision from making two.
    await q.query(`CREATE UNIQUE INDEX clients_contact_email_key ON clients (contact_email) WHERE contact_email IS NOT NULL`);

    await q.query(`
      CREATE TABLE api_keys (
        id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id      uuid        NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
        key_hash       text        NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        prefix         text        NOT NULL CHECK (length(prefix) = 8),
        created_at     timestamptz NOT NULL DEFAULT now(),
        revoked_at     timestamptz,
        revoked_reason text
      )`);
    // At most one working key per client: regenerate revokes the old one in the same transaction.
    await q.query(`CREATE UNIQUE INDEX api_keys_one_active ON api_keys (client_id) WHERE revoked_at IS NULL`);

    await q.query(`
      CREATE TABLE notification_settings (
        client_id        uuid        PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
        email_alerts     boolean     NOT NULL DEFAULT true,
        quota_warnings   boolean     NOT NULL DEFAULT true,
        payment_failures boolean     NOT NULL DEFAULT true,
        security_alerts  boolean     NOT NULL DEFAULT true,
        weekly_reports   boolean     NOT NULL DEFAULT false,
        monthly_reports  boolean     NOT NULL DEFAULT true,
        updated_at       timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE users (
        id                 uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        email              text        NOT NULL UNIQUE CHECK (email = lower(email)),
        full_name          text,
        password_hash      text,
        role               text        NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'user')),
        client_id          uuid        REFERENCES clients (id) ON DELETE SET NULL,
        email_confirmed_at timestamptz,
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE identities (
        id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id         uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider        text        NOT NULL CHECK (provider IN ('email', 'google')),
        subject         text        NOT NULL,
        email           text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz,
        UNIQUE (provider, subject)
      )`);

    // A session is one refresh-token family: every rotation adds a token to it,
    // and presenting a token that was already rotated revokes the whole family.
    await q.query(`
      CREATE TABLE sessions (
        id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        aal            text        NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
        amr            text[]      NOT NULL DEFAULT '{}',
        remember_me    boolean     NOT NULL DEFAULT false,
        ip             text,
        user_agent     text,
        created_at     timestamptz NOT NULL DEFAULT now(),
        refreshed_at   timestamptz,
        expires_at     timestamptz NOT NULL,
        revoked_at     timestamptz,
        revoked_reason text
      )`);
    await q.query(`CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL`);

    await q.query(`
      CREATE TABLE refresh_tokens (
        id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id  uuid        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        token_hash  text        NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        rotated_at  timestamptz
      )`);

    await q.query(`
      CREATE TABLE one_time_tokens (
        id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose     text        NOT NULL CHECK (purpose IN ('signup', 'recovery')),
        token_hash  text        NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL,
        used_at     timestamptz
      )`);

    await q.query(`
      CREATE TABLE mfa_factors (
        id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id       uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        factor_type   text        NOT NULL DEFAULT 'totp' CHECK (factor_type = 'totp'),
        friendly_name text,
        secret        text        NOT NULL,
        status        text        NOT NULL DEFAULT 'unverified' CHECK (status IN ('unverified', 'verified')),
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE mfa_challenges (
        id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        factor_id   uuid        NOT NULL REFERENCES mfa_factors (id) ON DELETE CASCADE,
        session_id  uuid        NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL,
        -- A challenge dies after a few wrong codes, so a 6-digit code cannot be walked.
        failed_attempts integer NOT NULL DEFAULT 0,
        verified_at timestamptz
      )`);
    // The primary key is what makes each TOTP code usable once, even under concurrent verifies.
    await q.query(`
      CREATE TABLE mfa_used_codes (
        factor_id  uuid        NOT NULL REFERENCES mfa_factors (id) ON DELETE CASCADE,
        time_step  bigint      NOT NULL,
        used_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (factor_id, time_step)
      )`);
    await q.query(`
      CREATE TABLE mfa_recovery_codes (
        id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash  text        NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at    timestamptz
      )`);

    await q.query(`
      CREATE TABLE login_attempts (
        id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email      text        NOT NULL,
        ip         text,
        succeeded  boolean     NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX login_attempts_failures ON login_attempts (email, created_at) WHERE NOT succeeded`);

    await q.query(`
      CREATE TABLE invitation_codes (
        id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        code_hash   text        NOT NULL UNIQUE,
        created_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL,
        used_at     timestamptz,
        used_by     uuid        REFERENCES users (id) ON DELETE SET NULL
      )`);

    await q.query(`
      CREATE TABLE oidc_states (
        state         text        PRIMARY KEY,
        provider      text        NOT NULL,
        code_verifier text        NOT NULL,
        nonce         text        NOT NULL,
        remember_me   boolean     NOT NULL DEFAULT false,
        created_at    timestamptz NOT NULL DEFAULT now(),
        expires_at    timestamptz NOT NULL
      )`);

    // Shared by every replica so tokens signed by one verify on another and survive restarts.
    await q.query(`
      CREATE TABLE signing_keys (
        kid         text        PRIMARY KEY,
        algorithm   text        NOT NULL,
        private_jwk jsonb       NOT NULL,
        public_jwk  jsonb       NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        retired_at  timestamptz
      )`);

    await q.query(`
      CREATE TABLE mailbox (
        id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient  text        NOT NULL,
        sender     text        NOT NULL,
        subject    text        NOT NULL,
        text_body  text        NOT NULL,
        html_body  text,
        raw        text        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX mailbox_recipient ON mailbox (recipient, created_at DESC)`);

    // Seeding runs on every `npm start`; this row makes it happen once.
    await q.query(`
      CREATE TABLE seed_runs (
        name       text        PRIMARY KEY,
        data       jsonb       NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'seed_runs', 'mailbox', 'signing_keys', 'oidc_states', 'invitation_codes', 'login_attempts', 'mfa_recovery_codes',
      'mfa_used_codes', 'mfa_challenges', 'mfa_factors', 'one_time_tokens', 'refresh_tokens', 'sessions', 'identities',
      'users', 'notification_settings', 'api_keys', 'clients',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
