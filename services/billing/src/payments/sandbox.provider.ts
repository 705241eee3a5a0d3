import { DomainError } from '@vigil/platform';
import { randomBytes } from 'node:crypto';
import type { BillingConfig } from '../env.js';
import type { CheckoutCreated, CheckoutInput, PaymentProvider, ProviderEvent, UpgradeCharge } from './payment-provider.js';

/** Stripe's documented test card that is always declined; the sandbox honours it the same way. */
export const SANDBOX_DECLINED_CARD = '4000000000000002';

/** Luhn check, so a mistyped test card is refused the way a real form would refuse it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * No network: the checkout "page" is the web app's /payment/checkout, which completes the
 * session through billing.v1.sandbox.complete; the service then raises the same
 * ProviderEvent a Stripe webhook would. There are no sandbox webhooks to verify.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly kind = 'sandbox' as const;

  constructor(private readonly config: Pick<BillingConfig, 'WEB_URL'>) {}

  async createCheckout(_input: CheckoutInput): Promise<CheckoutCreated> {
    const sessionId = `cs_sandbox_${randomBytes(12).toString('hex')}`;
    return { sessionId, url: `${this.config.WEB_URL}/payment/checkout?session_id=${sessionId}` };
  }

  async createPortal(_customerRef: string | null, returnUrl: string): Promise<string> {
    // The sandbox has no billing portal of its own; the account page is where plans are managed.
    return returnUrl;
  }

  parseWebhook(_payload: string, _signature: string): ProviderEvent {
    throw new DomainError('INVALID_SIGNATURE', 'Webhooks are not accepted: the sandbox payment provider is in use (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe).');
  }

  /** Checks the card a sandbox checkout was paid with. */
  pay(cardNumber: string): void {
    if (!luhnValid(cardNumber)) throw new DomainError('VALIDATION_FAILED', 'Your card number is invalid.', [{ pointer: '/cardNumber', detail: 'Your card number is invalid.' }]);
    if (cardNumber === SANDBOX_DECLINED_CARD) throw new DomainError('PAYMENT_DECLINED', 'Your card was declined.');
  }

  async upgrade(_charge: UpgradeCharge): Promise<void> {
    // Nothing to charge: the amount is recorded in billing's upgrades table.
  }
}
