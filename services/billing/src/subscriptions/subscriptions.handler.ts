import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  clientByEmailRequestSchema,
  clientRequestSchema,
  createCheckoutRequestSchema,
  sandboxCompleteRequestSchema,
  sandboxSessionRequestSchema,
  subjects,
  subscriptionCheckRequestSchema,
  webhookRequestSchema,
  type CheckoutSessionReply,
  type ClientByEmailResponse,
  type PortalSessionResponse,
  type SandboxCheckoutSession,
  type SandboxCompleteResponse,
  type SubscriptionCheckReply,
  type WebhookReply,
} from '@vigil/proto';
import { SubscriptionsService } from './subscriptions.service.js';

@Controller()
export class SubscriptionsHandler {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @MessagePattern(subjects.billing.createCheckout)
  createCheckout(@Payload() data: unknown): Promise<CheckoutSessionReply> {
    const request = parseMessage(createCheckoutRequestSchema, data, 'checkout');
    return this.subscriptions.createCheckout(request.user, request.tier, request.clientEmail);
  }

  @MessagePattern(subjects.billing.sandboxSession)
  sandboxSession(@Payload() data: unknown): Promise<SandboxCheckoutSession> {
    return this.subscriptions.sandboxSession(parseMessage(sandboxSessionRequestSchema, data));
  }

  @MessagePattern(subjects.billing.sandboxComplete)
  sandboxComplete(@Payload() data: unknown): Promise<SandboxCompleteResponse> {
    return this.subscriptions.sandboxComplete(parseMessage(sandboxCompleteRequestSchema, data, 'payment'));
  }

  @MessagePattern(subjects.billing.webhook)
  webhook(@Payload() data: unknown): Promise<WebhookReply> {
    const request = parseMessage(webhookRequestSchema, data);
    return this.subscriptions.webhook(request.payload, request.signature);
  }

  @MessagePattern(subjects.billing.portalSession)
  portal(@Payload() data: unknown): Promise<PortalSessionResponse> {
    return this.subscriptions.portal(parseMessage(clientRequestSchema, data).clientId);
  }

  @MessagePattern(subjects.billing.clientByEmail)
  clientByEmail(@Payload() data: unknown): Promise<ClientByEmailResponse> {
    const request = parseMessage(clientByEmailRequestSchema, data);
    return this.subscriptions.clientByEmail(request.user, request.email);
  }

  @MessagePattern(subjects.billing.subscription)
  subscription(@Payload() data: unknown): Promise<SubscriptionCheckReply> {
    return this.subscriptions.hasSubscription(parseMessage(subscriptionCheckRequestSchema, data).user);
  }
}
