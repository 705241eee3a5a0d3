import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sealWebhookSecret } from '../src/webhooks/webhook-secrets.js';

// Webhook endpoints' signing secrets were stored as they are. This seals every one still plain
// with the key migrate.js passes in (useSealingKey), in the format WebhookSecrets writes
// (`enc:v1:…`, bound to the webhook-secret context). Idempotent: sealed values are skipped.

let sealingKey: Buffer | undefined;

/** Set by migrate.js from the validated config before migrations run. */
export function useSealingKey(key: Buffer): void {
  sealingKey = key;
}

export class SealWebhookSecrets1764200000000 implements MigrationInterface {
  name = 'SealWebhookSecrets1764200000000';

  async up(q: QueryRunner): Promise<void> {
    const plain: { id: string; secret: string }[] = await q.query(
      `SELECT id, secret FROM webhook_endpoints WHERE secret NOT LIKE 'enc:v1:%'`,
    );
    if (plain.length === 0) return;
    // A fresh schema has nothing to seal; one with secrets needs the service's key.
    if (!sealingKey) {
      throw new Error(
        'Sealing the webhook secrets needs MONITORING_ENCRYPTION_KEY: run the migrations with dist/src/migrate.js.',
      );
    }
    for (const row of plain) {
      await q.query(`UPDATE webhook_endpoints SET secret = $2 WHERE id = $1`, [
        row.id,
        sealWebhookSecret(sealingKey, row.secret),
      ]);
    }
  }

  async down(): Promise<void> {
    // Sealed values stay sealed: WebhookSecrets opens them under the same key.
  }
}
