import type { MigrationInterface, QueryRunner } from 'typeorm';

// Sign-in attempts are claimed before the password is checked (a row per attempt, settled as a
// success afterwards), counted per email and per IP; `kind` keeps a locked owner's password+TOTP
// attempts apart from password attempts, so neither side's tries extend the other's lock.
// mail_throttle: one row per throttled notice (e.g. "someone tried to sign up with your email"),
// so a form cannot be used to flood an inbox.
export class SignInLimits1764100000003 implements MigrationInterface {
  name = 'SignInLimits1764100000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE login_attempts
        ADD COLUMN kind text NOT NULL DEFAULT 'password' CHECK (kind IN ('password', 'mfa_bypass'))`);
    await q.query(`DROP INDEX login_attempts_failures`);
    await q.query(`CREATE INDEX login_attempts_email ON login_attempts (email, kind, created_at)`);
    await q.query(
      `CREATE INDEX login_attempts_ip ON login_attempts (ip, created_at) WHERE NOT succeeded AND kind = 'password'`,
    );
    await q.query(`
      CREATE TABLE mail_throttle (
        key          text        PRIMARY KEY,
        last_sent_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mail_throttle`);
    await q.query(`DROP INDEX login_attempts_ip`);
    await q.query(`DROP INDEX login_attempts_email`);
    await q.query(`ALTER TABLE login_attempts DROP COLUMN kind`);
    await q.query(`CREATE INDEX login_attempts_failures ON login_attempts (email, created_at) WHERE NOT succeeded`);
  }
}
