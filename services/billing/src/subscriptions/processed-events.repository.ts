import { Injectable } from '@nestjs/common';
import { sql, type Queryable } from '../db/sql.js';

/** Provider events already applied: the primary key makes a redelivery a no-op. */
@Injectable()
export class ProcessedEventsRepository {
  /** True when this call claimed the event; false when it was processed before. Waits for a concurrent claimer's transaction. */
  async claim(eventId: string, type: string, q: Queryable): Promise<boolean> {
    const rows = await sql(q, `INSERT INTO processed_provider_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [eventId, type]);
    return rows.length > 0;
  }
}
