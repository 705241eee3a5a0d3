import { Card, CardDescription, CardHeader, CardTitle } from '@vigil/ui';
import { API_KEY_HEADER, API_KEY_VARIABLE, API_URL_VARIABLE } from './samples.js';

// What a bank's server needs beyond screening, as the gateway does it: the API key alone manages
// webhooks, sends a test event and opens the live stream; local mode lets a developer receive on
// 127.0.0.1. services/monitoring/test/server-to-server.spec.ts takes the same steps with the key alone,
// its receiver verifying with the same standardwebhooks library; the snippets here are not run by a test.

const RECEIVER = `// receiver.mjs: npm install standardwebhooks; VIGIL_WEBHOOK_SECRET=whsec_... node receiver.mjs
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.VIGIL_WEBHOOK_SECRET);
createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const event = webhook.verify(body, req.headers); // throws unless signed with your secret, within 5 minutes
      console.log('verified', req.headers['webhook-id'], event.type);
      res.writeHead(204).end();
    } catch (error) {
      console.log('refused', error.message);
      res.writeHead(400).end();
    }
  });
}).listen(9000, '127.0.0.1');`;

const curl = (method: string, path: string, body?: unknown) =>
  [
    `curl -X ${method} "$${API_URL_VARIABLE}${path}"`,
    `  -H "${API_KEY_HEADER}: $${API_KEY_VARIABLE}"`,
    ...(body ? ['  -H "Content-Type: application/json"', `  -d '${JSON.stringify(body)}'`] : []),
  ].join(' \\\n');

const STEPS: ReadonlyArray<{ title: string; text: string; code: string }> = [
  {
    title: '1. Run a receiver that verifies signatures',
    text:
      'Deliveries follow Standard Webhooks: headers webhook-id, webhook-timestamp and webhook-signature (HMAC-SHA256 ' +
      "with your endpoint secret). Verify with the standardwebhooks library of your language, or the SDK's " +
      'verifier, and answer 2xx. The SDKs tab has steps 1 to 4 as one program in TypeScript, Python, Java and Go.',
    code: RECEIVER,
  },
  {
    title: '2. Local mode (development only)',
    text:
      'Webhook targets must be public https URLs. To receive on 127.0.0.1, start Vigil with WEBHOOK_ALLOW_LOOPBACK=true ' +
      'on the monitoring service. It is refused at boot under any NODE_ENV but development and test, and private, ' +
      'link-local and reserved addresses stay refused even in local mode.',
    code: 'WEBHOOK_ALLOW_LOOPBACK=true npm start',
  },
  {
    title: '3. Register the endpoint with your API key',
    text:
      'The key alone is enough (no user session); webhooks come with the Small plan and up. The answer holds the ' +
      'secret (whsec_…) once: give it to your receiver as VIGIL_WEBHOOK_SECRET.',
    code: curl('POST', '/api/monitoring/webhooks', {
      url: 'http://127.0.0.1:9000/vigil',
      event_types: ['monitoring.alert', 'screening.review_required', 'bulk_job.completed'],
    }),
  },
  {
    title: '4. Send a test event',
    text:
      'A webhook.test event, signed like every delivery, goes out at once (one attempt, not retried). The answer is ' +
      'the delivery: status delivered when your receiver answered 2xx, failed with its status code otherwise. It is ' +
      'also in the delivery log.',
    code: [
      curl('POST', '/api/monitoring/webhooks/$WEBHOOK_ID/test'),
      curl('GET', '/api/monitoring/webhooks/$WEBHOOK_ID/deliveries'),
    ].join('\n\n'),
  },
  {
    title: '5. Or follow the live stream',
    text:
      'Server-Sent Events (Medium plan and up), opened with the key alone: ready, then monitoring.alert and ' +
      'screening.review_required as they happen, each data a JSON object. The stream ends if the key is revoked.',
    code: `curl -N "$${API_URL_VARIABLE}/api/monitoring/stream" -H "${API_KEY_HEADER}: $${API_KEY_VARIABLE}"`,
  },
];

/** The Docs page's server-to-server guide: webhooks to a verified delivery on 127.0.0.1, and the live stream. */
export function WebhooksGuide() {
  return (
    <div className="flex flex-col gap-5" data-testid="webhooks-guide">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Your server, your API key</CardTitle>
          <CardDescription className="leading-relaxed">
            Webhooks, the live stream and ongoing monitoring take the API key alone, for the key&apos;s client only.
            Your plan decides what the key may use (webhooks from Small, monitoring and the stream from Medium); team
            roles apply to people signed in to the dashboard, not to keys. Another client&apos;s ids answer 404.
          </CardDescription>
        </CardHeader>
      </Card>
      {STEPS.map((step) => (
        <figure key={step.title} className="overflow-hidden rounded-xl border border-border bg-background">
          <figcaption className="px-4 pt-4">
            <p className="font-medium">{step.title}</p>
            <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
          </figcaption>
          <pre className="m-4 overflow-x-auto rounded-lg bg-ink p-4 font-mono text-[13px] leading-6 text-ink-foreground">
            <code>{step.code}</code>
          </pre>
        </figure>
      ))}
    </div>
  );
}
