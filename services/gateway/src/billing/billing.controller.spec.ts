import { jest } from '@jest/globals';
import type { RpcClient } from '@vigil/platform';
import { checkoutBodySchema, contracts } from '@vigil/proto';
import type { Request, Response } from 'express';
import type { AdminActions } from '../audit/admin-actions.publisher.js';
import { setCaller, type SessionUser } from '../credentials/credentials.js';
import { BillingController } from './billing.controller.js';

const user: SessionUser = { id: '22222222-2222-4222-8222-222222222222', email: 'me@example.com', role: 'user', clientId: null, memberRole: null, sessionId: 's1', aal: 'aal1', mfaEnrolled: false };

function setup() {
  const rpc = { request: jest.fn(async (_contract: unknown, _payload: unknown): Promise<unknown> => ({})) };
  const actions = { record: jest.fn(async () => undefined) };
  return { sut: new BillingController(rpc as unknown as RpcClient, actions as unknown as AdminActions), rpc };
}

function req(body: unknown, caller: Parameters<typeof setCaller>[1] = {}) {
  const r = { body } as Request;
  setCaller(r, caller);
  return r;
}

describe('BillingController', () => {
  it('sends billing the verified user, not what the body claims', async () => {
    const { sut, rpc } = setup();
    const body = checkoutBodySchema.parse({ tier: 'small', clientEmail: 'me@example.com', user: { id: 'x', email: 'victim@example.com' } });
    await sut.checkout(user, body);
    expect(rpc.request).toHaveBeenCalledWith(contracts.billing.createCheckout, { user: { id: user.id, email: user.email }, tier: 'small', clientEmail: 'me@example.com' });
  });

  it('passes the webhook body byte for byte with its signature', async () => {
    const { sut, rpc } = setup();
    const raw = Buffer.from('{\n  "id": "evt_1",\n  "type": "invoice.paid"\n}');
    await sut.webhook(req(raw), 't=1,v1=abc');
    expect(rpc.request).toHaveBeenCalledWith(contracts.billing.webhook, { payload: raw.toString('utf8'), signature: 't=1,v1=abc' });
  });

  it('refuses a webhook whose body was already parsed, since its signature cannot be checked', () => {
    const { sut, rpc } = setup();
    expect(() => sut.webhook(req({ id: 'evt_1' }), 't=1,v1=abc')).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    expect(rpc.request).not.toHaveBeenCalled();
  });

  it('never lets a proxy cache the answer that may carry the new API key', async () => {
    const { sut, rpc } = setup();
    const res = { setHeader: jest.fn() } as unknown as Response;
    await sut.clientByEmail(user, 'me@example.com', res);
    expect(res.setHeader).toHaveBeenCalledWith('cache-control', 'no-store');
    expect(rpc.request).toHaveBeenCalledWith(contracts.billing.clientByEmail, { user: { id: user.id, email: user.email }, email: 'me@example.com' });
  });

  it('serves the plan catalogue from proto, with the yearly price and Most Popular', () => {
    const { plans } = setup().sut.plans();
    expect(plans.map((p) => [p.tier, p.priceUsdPerMonth, p.priceUsdPerYear, p.mostPopular])).toEqual([
      ['starter', 99, 950, false],
      ['small', 299, 2_870, false],
      ['medium', 999, 9_590, true],
      ['large', 2_499, 23_990, false],
    ]);
  });
});
