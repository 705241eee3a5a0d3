import { Controller, Get, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  PLANS,
  checkoutBodySchema,
  contracts,
  sandboxCompleteBodySchema,
  upgradeBodySchema,
  type PlansResponse,
  type ResolvedKey,
  plansResponseSchema,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { AdminActions, CurrentActor, type AdminActor } from '../audit/admin-actions.publisher.js';
import { AnyPlan, Credentials, RequiresMemberRole, type SessionUser } from '../credentials/credentials.js';
import { CurrentClient, CurrentUser, ZodBody, ZodParam, ZodQuery } from '../http/route-params.js';
import { Answers } from '../http/answers.js';
import { PLANS_EXAMPLE } from '../openapi/answer-examples.js';

const on = contracts.billing;

/** The verified user of a session route, as billing expects it. */
const billingUser = (user: SessionUser) => ({ id: user.id, email: user.email });

/**
 * /api/plans, /api/payment/*, /api/upgrade/*: thin routes over NATS to the billing
 * service. The credentials guard has verified the caller; billing gets only the verified
 * identity (user id and e-mail, or the key's client id), never what the body claims.
 */
@Controller('api')
export class BillingController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly actions: AdminActions,
  ) {}

  @Get('plans')
  @Answers(plansResponseSchema, { summary: 'The plan catalogue', example: PLANS_EXAMPLE })
  @Credentials('public')
  plans(): PlansResponse {
    return { plans: [...PLANS] };
  }

  @Post('payment/create-checkout-session')
  @Answers(on.createCheckout, { summary: 'Start a checkout' })
  @Credentials('session')
  @HttpCode(200)
  checkout(
    @CurrentUser() user: SessionUser,
    @ZodBody(checkoutBodySchema, 'checkout') body: z.output<typeof checkoutBodySchema>,
  ) {
    return this.rpc.request(on.createCheckout, { user: billingUser(user), ...body });
  }

  @Get('payment/sandbox/sessions/:id')
  @Answers(on.sandboxSession, { summary: 'A sandbox checkout session' })
  @Credentials('session')
  sandboxSession(@CurrentUser() user: SessionUser, @ZodParam('id') id: string) {
    return this.rpc.request(on.sandboxSession, { user: billingUser(user), sessionId: id });
  }

  @Post('payment/sandbox/sessions/:id/complete')
  @Answers(on.sandboxComplete, { summary: 'Complete a sandbox checkout' })
  @Credentials('session')
  @HttpCode(200)
  sandboxComplete(
    @CurrentUser() user: SessionUser,
    @ZodParam('id') id: string,
    @ZodBody(sandboxCompleteBodySchema, 'payment') body: z.output<typeof sandboxCompleteBodySchema>,
  ) {
    return this.rpc.request(on.sandboxComplete, { user: billingUser(user), sessionId: id, ...body });
  }

  /**
   * Stripe's webhook: the signature covers the exact bytes, so it needs the raw body
   * (express.raw for this path, mounted before the JSON parser in create-app.ts).
   */
  @Post('payment/webhook')
  @Answers(on.webhook, { summary: 'Payment provider webhook' })
  @Credentials('public')
  @HttpCode(200)
  webhook(@Req() req: Request, @Headers('stripe-signature') signature: string | undefined) {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw))
      throw new DomainError(
        'BAD_REQUEST',
        'The webhook needs the raw request body; the gateway parsed it before it got here.',
      );
    return this.rpc.request(on.webhook, { payload: raw.toString('utf8'), signature: signature ?? '' });
  }

  @Get('payment/portal-session')
  @Answers(on.portalSession, { summary: 'Open the billing portal' })
  @Credentials('dashboard')
  @RequiresMemberRole('owner')
  // Every plan: a starter or small owner updates its card, cancels or downgrades there (the payment-failed alert says so).
  @AnyPlan()
  portal(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.portalSession, { clientId: client.clientId });
  }

  @Get('payment/client-by-email/:email')
  @Answers(on.clientByEmail, { summary: 'Find a billing client by email' })
  @Credentials('session')
  clientByEmail(
    @CurrentUser() user: SessionUser,
    @ZodParam('email') email: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    // The answer may carry the new API key (once): never cache it.
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.clientByEmail, { user: billingUser(user), email });
  }

  @Get('payment/subscription')
  @Answers(on.subscription, { summary: "The client's subscription" })
  @Credentials('session')
  subscription(@CurrentUser() user: SessionUser) {
    return this.rpc.request(on.subscription, { user: billingUser(user), clientId: user.clientId });
  }

  @Get('upgrade/options')
  @Answers(on.upgradeOptions, { summary: 'Plans the client can move to' })
  @Credentials('dashboard')
  @AnyPlan()
  upgradeOptions(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.upgradeOptions, { clientId: client.clientId });
  }

  @Get('upgrade/preview')
  @Answers(on.upgradePreview, { summary: 'Preview a plan change' })
  @Credentials('dashboard')
  @AnyPlan()
  upgradePreview(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(upgradeBodySchema, 'message') query: z.output<typeof upgradeBodySchema>,
  ) {
    return this.rpc.request(on.upgradePreview, { clientId: client.clientId, ...query });
  }

  @Post('upgrade/upgrade')
  @Answers(on.upgrade, { summary: 'Change plan' })
  @Credentials('dashboard')
  @RequiresMemberRole('owner')
  @AnyPlan()
  @HttpCode(200)
  async upgrade(
    @CurrentActor() actor: AdminActor,
    @CurrentClient() client: ResolvedKey,
    @ZodBody(upgradeBodySchema, 'message') body: z.output<typeof upgradeBodySchema>,
  ) {
    const result = await this.rpc.request(on.upgrade, { clientId: client.clientId, ...body });
    // For the audit trail: who changed the client's tier, from what to what.
    await this.actions.record(
      'tier.changed',
      actor,
      { clientId: client.clientId, clientName: client.clientName },
      { from: client.tier, to: body.newTier },
    );
    return result;
  }

  @Get('client/quota-monitoring')
  @Answers(on.quotaMonitoring, { summary: 'Quota usage across clients' })
  @Credentials('admin')
  quotaMonitoring() {
    return this.rpc.request(on.quotaMonitoring, {});
  }

  @Post('client/quota-monitoring/check-warnings')
  @Answers(on.checkWarnings, { summary: 'Send quota warnings now' })
  @Credentials('admin')
  @HttpCode(200)
  checkWarnings() {
    return this.rpc.request(on.checkWarnings, {});
  }

  @Post('client/quota-monitoring/check-payments')
  @Answers(on.checkPayments, { summary: 'Check overdue payments now' })
  @Credentials('admin')
  @HttpCode(200)
  checkPayments() {
    return this.rpc.request(on.checkPayments, {});
  }
}
