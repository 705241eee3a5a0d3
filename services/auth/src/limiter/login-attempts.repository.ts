import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../db.js';

@Injectable()
export class LoginAttemptsRepository {
  constructor(private readonly db: DataSource) {}

  async record(email: string, ip: string | undefined, succeeded: boolean): Promise<void> {
    await sql(this.db, `INSERT INTO login_attempts (email, ip, succeeded) VALUES ($1, $2, $3)`, [email, ip ?? null, succeeded]);
  }

  /**
   * Failures for this email inside the window since its last success, newest
   * first, at most `limit` of them: enough to tell whether and until when it is locked.
   */
  async recentFailures(email: string, windowSeconds: number, limit: number): Promise<Date[]> {
    const rows: { created_at: Date }[] = await sql(this.db, 
      `SELECT created_at FROM login_attempts
        WHERE email = $1 AND NOT succeeded
          AND created_at > now() - make_interval(secs => $2)
          AND created_at > coalesce((SELECT max(created_at) FROM login_attempts WHERE email = $1 AND succeeded), '-infinity')
        ORDER BY created_at DESC LIMIT $3`,
      [email, windowSeconds, limit],
    );
    return rows.map((r) => r.created_at);
  }

  /** Keeps the table small; attempts older than a day decide nothing. */
  async prune(): Promise<void> {
    await sql(this.db, `DELETE FROM login_attempts WHERE created_at < now() - interval '1 day'`);
  }
}
