import { createServer, type IncomingMessage, type Server } from 'node:http';

export type StripeRequest = { method: string; path: string; authorization: string | undefined; form: URLSearchParams };

/**
 * A stand-in for api.stripe.com on loopback: records what the SDK sent (form-encoded, as
 * Stripe's API takes it) and answers the objects Stripe documents for those calls.
 */
export async function startFakeStripe(): Promise<{ url: string; requests: StripeRequest[]; stop: () => Promise<void> }> {
  const requests: StripeRequest[] = [];
  let sessions = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, form: new URLSearchParams(body) });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++sessions}`;
        return reply(200, { id, object: 'checkout.session', mode: 'subscription', status: 'open', url: `https://checkout.stripe.com/c/pay/${id}` });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return reply(200, { id: 'bps_test_1', object: 'billing_portal.session', customer: new URLSearchParams(body).get('customer'), url: 'https://billing.stripe.com/p/session/test_1' });
      }
      reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
