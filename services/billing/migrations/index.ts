import { ProcessedMessages1763800000000 } from '@vigil/platform';
import { BillingSchema1764300000000 } from './1764300000000-billing-schema.js';
import { CheckoutClientName1764400000000 } from './1764400000000-checkout-client-name.js';
import { MailOutboxDelivery1764500000000 } from './1764500000000-mail-outbox-delivery.js';

// Listed explicitly, in order: ESM builds have no reliable glob loading, and an
// explicit list makes a forgotten migration a compile-time diff, not a surprise.
export const migrations = [
  ProcessedMessages1763800000000,
  BillingSchema1764300000000,
  CheckoutClientName1764400000000,
  MailOutboxDelivery1764500000000,
];
