import { Injectable } from '@nestjs/common';
import type { Queryable } from '@vigil/platform';

/** Provider events already applied: the primary key makes a redelivery a no-op. */
@Injectable()
export class ProcessedEventsRepository {
  /** True when this call claimed the event; false when it was processed before. Waits for a concurrent claimer's transaction. */
  async claim(eventId: string, type: string, q: Queryable): Promise<boolean> {
    const rows = await q.query(`INSERT INTO processed_provider_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [eventId, type]);
    return rows.length > 0;
  }
}
