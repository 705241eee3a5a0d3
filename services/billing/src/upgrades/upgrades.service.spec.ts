import { jest } from '@jest/globals';
import { Database, DomainError } from '@vigil/platform';
import type { Client, Tier } from '@vigil/proto';
import type { AuthClients } from '../clients/auth-clients.adapter.js';
import type { BillingConfig } from '../env.js';
import type { PaymentProvider } from '../payments/payment-provider.js';
import type { BillingEventsPublisher } from '../subscriptions/billing-events.publisher.js';
import type { Customer, CustomersRepository } from '../subscriptions/customers.repository.js';
import type { UpgradesRepository } from './upgrades.repository.js';
import { UpgradesService } from './upgrades.service.js';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-11T00:00:00Z');
const CLIENT_ID = '11111111-1111-4111-8111-111111111111';

function customer(changes: Partial<Customer> = {}): Customer {
  return {
    client_id: CLIENT_ID,
    email: 'bank@example.com',
    user_id: null,
    tier: 'starter',
    subscription_status: 'active',
    provider: 'sandbox',
    provider_customer_id: null,
    provider_subscription_id: null,
    period_start: new Date(NOW.getTime() - 10 * DAY_MS),
    period_end: new Date(NOW.getTime() + 20 * DAY_MS),
    deleted: false,
    updated_at: NOW,
    ...changes,
  };
}

function setup(found: Customer | undefined, config: Partial<BillingConfig> = {}) {
  const tx = { query: jest.fn() };
  const db = { transaction: jest.fn(async (work: (manager: unknown) => Promise<unknown>) => work(tx)) };
  const customers = {
    lockByClientId: jest.fn(async () => found),
    byClientId: jest.fn(async () => found),
    setTier: jest.fn(async () => undefined),
  };
  const upgrades = { insert: jest.fn(async () => undefined) };
  const client = (tier: Tier, quota: number) => ({ id: CLIENT_ID, tier, quota_month: quota }) as Client;
  const auth = {
    get: jest.fn(async () => client('starter', 1_000)),
    updateSubscription: jest.fn(async () => client('large', 100_000)),
  };
  const provider = { upgrade: jest.fn(async () => undefined) };
  const publisher = { tierChanged: jest.fn(async () => undefined) };
  const sut = new UpgradesService(
    { MAX_UPGRADE_CHARGE_USD: 5_000, ...config } as BillingConfig,
    provider as unknown as PaymentProvider,
    db as unknown as Database,
    customers as unknown as CustomersRepository,
    upgrades as unknown as UpgradesRepository,
    auth as unknown as AuthClients,
    publisher as unknown as BillingEventsPublisher,
  );
  return { sut, mocks: { provider, auth, customers, upgrades, publisher } };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('UpgradesService refusals', () => {
  it.each([
    ['no customer', undefined, 'large', 'CUSTOMER_NOT_FOUND', 'Customer not found: complete the initial setup first.'],
    [
      'a deleted customer',
      customer({ deleted: true }),
      'large',
      'CUSTOMER_DELETED',
      'The billing customer for this client was deleted: contact support.',
    ],
    [
      'an unknown tier',
      customer(),
      'gold',
      'INVALID_TIER',
      'Invalid tier "gold": choose one of starter, small, medium, large.',
    ],
    ['the same tier', customer(), 'starter', 'ALREADY_ON_TIER', 'You are already on the Starter tier.'],
    [
      'a lower tier',
      customer({ tier: 'medium' }),
      'small',
      'CANNOT_DOWNGRADE',
      'Cannot downgrade here: use the billing portal to change to a lower plan.',
    ],
    [
      'a failed payment',
      customer({ subscription_status: 'payment_failed' }),
      'large',
      'SUBSCRIPTION_INACTIVE',
      'Subscription not active (payment failed): settle the payment before upgrading.',
    ],
    [
      'a period that cannot be priced',
      customer({ period_start: new Date(Number.NaN) }),
      'large',
      'INVALID_UPGRADE_COST',
      'Invalid upgrade cost.',
    ],
  ] as const)('refuses %s with a stable code and charges nothing', async (_case, found, newTier, code, message) => {
    const { sut, mocks } = setup(found);
    const error = await failure(sut.upgrade(CLIENT_ID, newTier, NOW));
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
    expect(mocks.provider.upgrade).not.toHaveBeenCalled();
    expect(mocks.auth.updateSubscription).not.toHaveBeenCalled();
    expect(mocks.publisher.tierChanged).not.toHaveBeenCalled();
  });

  it('refuses a charge above MAX_UPGRADE_CHARGE_USD, and charges one at the limit', async () => {
    // Starter → large ten days into a 30-day period: (2,499 − 99) × 20 / 30 = 1,600.00
    const over = setup(customer(), { MAX_UPGRADE_CHARGE_USD: 1_599.99 });
    const error = await failure(over.sut.upgrade(CLIENT_ID, 'large', NOW));
    expect(error.code).toBe('UPGRADE_COST_TOO_HIGH');
    expect(error.message).toBe('Upgrade cost too high: $1600.00 exceeds the $1599.99 limit; contact support.');
    expect(over.mocks.provider.upgrade).not.toHaveBeenCalled();

    const at = setup(customer(), { MAX_UPGRADE_CHARGE_USD: 1_600 });
    await expect(at.sut.upgrade(CLIENT_ID, 'large', NOW)).resolves.toMatchObject({
      proratedCost: 1_600,
      tier: 'large',
    });
    expect(at.mocks.provider.upgrade).toHaveBeenCalledWith(
      expect.objectContaining({ proratedCents: 160_000, toTier: 'large' }),
    );
    expect(at.mocks.publisher.tierChanged).toHaveBeenCalledTimes(1);
  });

  it('raises nothing when the payment provider refuses the charge', async () => {
    const { sut, mocks } = setup(customer());
    mocks.provider.upgrade.mockRejectedValueOnce(
      new DomainError('PAYMENT_PROCESSING_ERROR', 'Payment processing error: Your card was declined.'),
    );
    expect((await failure(sut.upgrade(CLIENT_ID, 'large', NOW))).code).toBe('PAYMENT_PROCESSING_ERROR');
    expect(mocks.auth.updateSubscription).not.toHaveBeenCalled();
    expect(mocks.upgrades.insert).not.toHaveBeenCalled();
    expect(mocks.publisher.tierChanged).not.toHaveBeenCalled();
  });
});
