import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { SubscriptionsService } from './subscriptions.service.js';

const on = contracts.billing;

@Controller()
export class SubscriptionsHandler {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Handles(on.createCheckout, 'checkout')
  createCheckout(request: ParsedRequestOf<typeof on.createCheckout>) {
    return this.subscriptions.createCheckout(request.user, request.tier, request.clientEmail, request.clientName);
  }

  @Handles(on.sandboxSession)
  sandboxSession(request: ParsedRequestOf<typeof on.sandboxSession>) {
    return this.subscriptions.sandboxSession(request);
  }

  @Handles(on.sandboxComplete, 'payment')
  sandboxComplete(request: ParsedRequestOf<typeof on.sandboxComplete>) {
    return this.subscriptions.sandboxComplete(request);
  }

  @Handles(on.webhook)
  webhook(request: ParsedRequestOf<typeof on.webhook>) {
    return this.subscriptions.webhook(request.payload, request.signature);
  }

  @Handles(on.portalSession)
  portal(request: ParsedRequestOf<typeof on.portalSession>) {
    return this.subscriptions.portal(request.clientId);
  }

  @Handles(on.clientByEmail)
  clientByEmail(request: ParsedRequestOf<typeof on.clientByEmail>) {
    return this.subscriptions.clientByEmail(request.user, request.email);
  }

  @Handles(on.subscription)
  subscription(request: ParsedRequestOf<typeof on.subscription>) {
    return this.subscriptions.hasSubscription(request.user, request.clientId);
  }
}
