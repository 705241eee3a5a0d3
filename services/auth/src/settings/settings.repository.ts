import { Injectable } from '@nestjs/common';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '@vigil/proto';
import { Database } from '@vigil/platform';

const FLAGS = ['email_alerts', 'quota_warnings', 'payment_failures', 'security_alerts', 'weekly_reports', 'monthly_reports'] as const;

@Injectable()
export class SettingsRepository {
  constructor(private readonly db: Database) {}

  /** The client's flags; a client that never saved any has the defaults (the table's column defaults match them). */
  async notifications(clientId: string): Promise<NotificationSettings> {
    const rows: NotificationSettings[] = await this.db.query(`SELECT ${FLAGS.join(', ')} FROM notification_settings WHERE client_id = $1`, [clientId]);
    return rows[0] ?? { ...DEFAULT_NOTIFICATION_SETTINGS };
  }

  async saveNotifications(clientId: string, changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
    const merged = { ...(await this.notifications(clientId)), ...changes };
    const rows: NotificationSettings[] = await this.db.query(
      `INSERT INTO notification_settings (client_id, ${FLAGS.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (client_id) DO UPDATE SET ${FLAGS.map((f) => `${f} = EXCLUDED.${f}`).join(', ')}, updated_at = now()
       RETURNING ${FLAGS.join(', ')}`,
      [clientId, ...FLAGS.map((f) => merged[f])],
    );
    return rows[0]!;
  }
}
