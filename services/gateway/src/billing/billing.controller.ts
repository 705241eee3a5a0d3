import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  PLANS,
  subjects,
  type CheckoutSessionResponse,
  type ClientByEmailResponse,
  type PlansResponse,
  type PortalSessionResponse,
  type QuotaCheckResponse,
  type QuotaMonitoringResponse,
  type SandboxCheckoutSession,
  type SandboxCompleteResponse,
  type SubscriptionCheckResponse,
  type UpgradeOptionsResponse,
  type UpgradePreview,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { bodyOf } from '../auth/caller.js';
import { AnyPlan, Credentials, callerOf } from '../credentials/credentials.js';

/** The verified user of a session route, as billing expects it. */
function userOf(req: Request) {
  const user = callerOf(req).user;
  if (!user) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
  return { id: user.id, email: user.email };
}

function clientIdOf(req: Request) {
  const client = callerOf(req).client;
  if (!client) throw new DomainError('INVALID_API_KEY', 'API key not available.');
  return client.clientId;
}

/**
 * /api/plans, /api/payment/*, /api/upgrade/*: thin routes over NATS to the billing
 * service. The credentials guard has verified the caller; billing gets only the verified
 * identity (user id and e-mail, or the key's client id), never what the body claims.
 */
@Controller('api')
export class BillingController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('plans')
  @Credentials('public')
  plans(): PlansResponse {
    return { plans: [...PLANS] };
  }

  @Post('payment/create-checkout-session')
  @Credentials('session')
  @HttpCode(200)
  checkout(@Req() req: Request): Promise<CheckoutSessionResponse> {
    const body = bodyOf(req);
    return this.rpc.request(subjects.billing.createCheckout, { user: userOf(req), tier: body.tier, clientEmail: body.clientEmail });
  }

  @Get('payment/sandbox/sessions/:id')
  @Credentials('session')
  sandboxSession(@Req() req: Request, @Param('id') id: string): Promise<SandboxCheckoutSession> {
    return this.rpc.request(subjects.billing.sandboxSession, { user: userOf(req), sessionId: id });
  }

  @Post('payment/sandbox/sessions/:id/complete')
  @Credentials('session')
  @HttpCode(200)
  sandboxComplete(@Req() req: Request, @Param('id') id: string): Promise<SandboxCompleteResponse> {
    return this.rpc.request(subjects.billing.sandboxComplete, { user: userOf(req), sessionId: id, cardNumber: bodyOf(req).cardNumber });
  }

  /**
   * Stripe's webhook: the signature covers the exact bytes, so it needs the raw body
   * (express.raw for this path, mounted before the JSON parser in create-app.ts).
   */
  @Post('payment/webhook')
  @Credentials('public')
  @HttpCode(200)
  webhook(@Req() req: Request, @Headers('stripe-signature') signature: string | undefined): Promise<{ received: true }> {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw)) throw new DomainError('BAD_REQUEST', 'The webhook needs the raw request body; the gateway parsed it before it got here.');
    return this.rpc.request(subjects.billing.webhook, { payload: raw.toString('utf8'), signature: signature ?? '' });
  }

  @Get('payment/portal-session')
  @Credentials('api-key')
  portal(@Req() req: Request): Promise<PortalSessionResponse> {
    return this.rpc.request(subjects.billing.portalSession, { clientId: clientIdOf(req) });
  }

  @Get('payment/client-by-email/:email')
  @Credentials('session')
  clientByEmail(@Req() req: Request, @Param('email') email: string, @Res({ passthrough: true }) res: Response): Promise<ClientByEmailResponse> {
    // The answer may carry the new API key (once): never cache it.
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.billing.clientByEmail, { user: userOf(req), email });
  }

  @Get('payment/subscription')
  @Credentials('session')
  subscription(@Req() req: Request): Promise<SubscriptionCheckResponse> {
    return this.rpc.request(subjects.billing.subscription, { user: userOf(req) });
  }

  @Get('upgrade/options')
  @Credentials('dashboard')
  @AnyPlan()
  upgradeOptions(@Req() req: Request): Promise<UpgradeOptionsResponse> {
    return this.rpc.request(subjects.billing.upgradeOptions, { clientId: clientIdOf(req) });
  }

  @Get('upgrade/preview')
  @Credentials('dashboard')
  @AnyPlan()
  upgradePreview(@Req() req: Request, @Query('newTier') newTier: unknown): Promise<UpgradePreview> {
    return this.rpc.request(subjects.billing.upgradePreview, { clientId: clientIdOf(req), newTier });
  }

  @Post('upgrade/upgrade')
  @Credentials('dashboard')
  @AnyPlan()
  @HttpCode(200)
  upgrade(@Req() req: Request): Promise<unknown> {
    return this.rpc.request(subjects.billing.upgrade, { clientId: clientIdOf(req), newTier: bodyOf(req).newTier });
  }

  @Get('client/quota-monitoring')
  @Credentials('admin')
  quotaMonitoring(): Promise<QuotaMonitoringResponse> {
    return this.rpc.request(subjects.billing.quotaMonitoring, {});
  }

  @Post('client/quota-monitoring/check-warnings')
  @Credentials('admin')
  @HttpCode(200)
  checkWarnings(): Promise<QuotaCheckResponse> {
    return this.rpc.request(subjects.billing.checkWarnings, {});
  }

  @Post('client/quota-monitoring/check-payments')
  @Credentials('admin')
  @HttpCode(200)
  checkPayments(): Promise<QuotaCheckResponse> {
    return this.rpc.request(subjects.billing.checkPayments, {});
  }
}
