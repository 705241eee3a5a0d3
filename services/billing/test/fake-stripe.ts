import { createServer, type IncomingMessage, type Server } from 'node:http';

export type StripeRequest = { method: string; path: string; authorization: string | undefined; form: URLSearchParams };

/**
 * A stand-in for api.stripe.com on loopback: records what the SDK sent (form-encoded, as
 * Stripe's API takes it) and answers the objects Stripe documents for those calls.
 */
export type FakeStripe = {
  url: string;
  requests: StripeRequest[];
  declineNextPayment: () => void;
  stop: () => Promise<void>;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  let decline = false;
  let sessions = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        form: new URLSearchParams(body),
      });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++sessions}`;
        return reply(200, {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'open',
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return reply(200, {
          id: 'bps_test_1',
          object: 'billing_portal.session',
          customer: new URLSearchParams(body).get('customer'),
          url: 'https://billing.stripe.com/p/session/test_1',
        });
      }
      const subscription = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(path);
      if (subscription) {
        const item = {
          id: 'si_1',
          object: 'subscription_item',
          price: { id: 'price_1', object: 'price', product: 'prod_1', unit_amount: 99_900 },
        };
        return reply(200, {
          id: subscription[1],
          object: 'subscription',
          customer: 'cus_1',
          status: 'active',
          items: { object: 'list', data: [item] },
        });
      }
      if (req.method === 'POST' && path === '/v1/invoiceitems')
        return reply(200, { id: 'ii_1', object: 'invoiceitem' });
      if (req.method === 'POST' && path === '/v1/invoices')
        return reply(200, { id: 'in_up_1', object: 'invoice', status: 'draft' });
      if (req.method === 'POST' && path === '/v1/invoices/in_up_1/pay') {
        if (decline) {
          decline = false;
          return reply(402, {
            error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
          });
        }
        return reply(200, { id: 'in_up_1', object: 'invoice', status: 'paid' });
      }
      reply(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    declineNextPayment: () => {
      decline = true;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
