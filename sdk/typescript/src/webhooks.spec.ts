import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './webhooks.js';

// The vector shared by the four SDKs (sdk/webhook-test-vector.json).
const vector = JSON.parse(readFileSync(new URL('../../webhook-test-vector.json', import.meta.url), 'utf8')) as {
  secret: string;
  headers: Record<string, string>;
  body: string;
  now: number;
  toleranceSeconds: number;
};

describe('verifyWebhook', () => {
  it('accepts the shared vector, which the monitoring service signer accepts too', async () => {
    await expect(
      verifyWebhook(vector.secret, vector.headers, vector.body, { now: vector.now }),
    ).resolves.toBeUndefined();
    await expect(
      verifyWebhook(vector.secret, new Headers(vector.headers), new TextEncoder().encode(vector.body), {
        now: vector.now,
      }),
    ).resolves.toBeUndefined();
    // The vector is the monitoring service's scheme, not only this function's: its signer's own verify agrees.
    const webhook = new Webhook(vector.secret);
    const realNow = Date.now;
    Date.now = () => vector.now * 1000;
    try {
      expect(webhook.verify(vector.body, vector.headers)).toEqual(JSON.parse(vector.body));
    } finally {
      Date.now = realNow;
    }
  });

  it('refuses a changed body', async () => {
    await expect(
      verifyWebhook(vector.secret, vector.headers, vector.body.replace('review', 'clear'), { now: vector.now }),
    ).rejects.toThrow(new WebhookVerificationError('no webhook-signature matches'));
  });

  it('refuses a delivery older than the tolerance', async () => {
    const late = Number(vector.headers['webhook-timestamp']) + vector.toleranceSeconds + 1;
    await expect(verifyWebhook(vector.secret, vector.headers, vector.body, { now: late })).rejects.toThrow(
      new WebhookVerificationError('webhook-timestamp is outside the tolerance'),
    );
  });

  it('signs a fresh delivery the way the monitoring service does', async () => {
    const secret = `whsec_${Buffer.from('a fresh secret of 24 byte').toString('base64')}`;
    const body = JSON.stringify({ type: 'monitoring.match', data: { n: Math.random() } });
    const sentAt = new Date();
    const signature = new Webhook(secret).sign('msg_fresh', sentAt, body);
    const headers = {
      'webhook-id': 'msg_fresh',
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    };
    await expect(verifyWebhook(secret, headers, body)).resolves.toBeUndefined();
  });
});
