import type { BillingConfig } from '../env.js';
import type { PaymentProvider } from './payment-provider.js';
import { SandboxPaymentProvider } from './sandbox.provider.js';
import { StripePaymentProvider } from './stripe.provider.js';

/** Stripe when both Stripe secrets are configured (env validation refuses one alone), otherwise the sandbox. */
export function paymentProviderFor(config: BillingConfig): PaymentProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      toleranceSeconds: config.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
    });
  }
  return new SandboxPaymentProvider(config);
}
