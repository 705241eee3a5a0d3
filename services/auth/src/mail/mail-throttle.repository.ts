import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

/** At most one notice per key (a kind of mail and its address) per interval, across replicas. */
@Injectable()
export class MailThrottleRepository {
  constructor(private readonly db: Database) {}

  /** True if the caller may send now (and the send is recorded); one statement, so concurrent callers get one true. */
  async claim(key: string, intervalSeconds: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO mail_throttle (key, last_sent_at) VALUES ($1, now())
       ON CONFLICT (key) DO UPDATE SET last_sent_at = now()
         WHERE mail_throttle.last_sent_at <= now() - make_interval(secs => $2)
       RETURNING key`,
      [key, intervalSeconds],
    );
    return rows.length > 0;
  }
}
