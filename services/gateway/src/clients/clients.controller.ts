import { Controller, Delete, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import type { Response } from 'express';
import { AdminActions, CurrentActor, type AdminActor } from '../audit/admin-actions.publisher.js';
import { ApiKeys } from '../credentials/api-keys.service.js';
import { Credentials } from '../credentials/credentials.js';
import { AccessToken, ZodRequest } from '../http/route-params.js';
import { Answers } from '../http/answers.js';

const on = contracts.clients;
type RequestFor<K extends Exclude<keyof typeof on, 'settings' | 'team'>> = ParsedRequestOf<(typeof on)[K]>;
/** The admin's token and the client named by the path: what every per-client route sends. */
const byId = (schema: typeof on.delete.request) =>
  ZodRequest(schema, 'message', { body: false, accessToken: true, params: { clientId: 'id' } });

/**
 * /api/client/clients/*: the admin console's client administration. The credentials guard
 * admits admins only and records ADMIN_ACCESS with the actor; the auth service checks the role
 * again. Each change is then recorded as an admin action for the audit trail.
 */
@Controller('api/client/clients')
@Credentials('admin')
export class ClientsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly actions: AdminActions,
    private readonly keys: ApiKeys,
  ) {}

  @Get()
  @Answers(on.list, { summary: 'Every client' })
  list(@AccessToken() accessToken: string) {
    return this.rpc.request(on.list, { accessToken });
  }

  @Post('create')
  @Answers(on.create, { status: 201, summary: 'Create a client and its API key' })
  @HttpCode(201)
  async create(
    @ZodRequest(on.create.request, 'client', { accessToken: true }) request: RequestFor<'create'>,
    @CurrentActor() actor: AdminActor,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    const client = await this.rpc.request(on.create, request);
    await this.actions.record(
      'client.created',
      actor,
      { clientId: client.id, clientName: client.client_name },
      { tier: client.tier },
    );
    return client;
  }

  @Get('api-key/:key')
  @Answers(on.findByKey, { summary: 'Find a client by API key' })
  findByKey(
    @ZodRequest(on.findByKey.request, 'message', { body: false, accessToken: true, params: { apiKey: 'key' } })
    request: RequestFor<'findByKey'>,
  ) {
    return this.rpc.request(on.findByKey, request);
  }

  @Put(':id/thresholds')
  @Answers(on.updateThresholds, { summary: "Set a client's match thresholds" })
  async thresholds(
    @ZodRequest(on.updateThresholds.request, 'threshold configuration', {
      accessToken: true,
      params: { clientId: 'id' },
    })
    request: RequestFor<'updateThresholds'>,
    @CurrentActor() actor: AdminActor,
  ) {
    const client = await this.rpc.request(on.updateThresholds, request);
    // The key cache carries the client's thresholds to screening: the next screen must use the new ones.
    this.keys.forgetClient(client.id);
    await this.actions.record(
      'thresholds.changed',
      actor,
      { clientId: client.id, clientName: client.client_name },
      { threshold_config: client.threshold_config },
    );
    return client;
  }

  @Delete(':id')
  @Answers(on.delete, { summary: 'Delete a client' })
  async remove(@byId(on.delete.request) request: RequestFor<'delete'>, @CurrentActor() actor: AdminActor) {
    const reply = await this.rpc.request(on.delete, request);
    await this.actions.record('client.deleted', actor, { clientId: request.clientId, clientName: null });
    return reply;
  }

  @Post(':id/regenerate-key')
  @Answers(on.regenerateKey, { summary: "Regenerate a client's API key" })
  @HttpCode(200)
  async regenerate(
    @byId(on.regenerateKey.request) request: RequestFor<'regenerateKey'>,
    @CurrentActor() actor: AdminActor,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    const client = await this.rpc.request(on.regenerateKey, request);
    // The key itself never leaves this answer: the record says that it changed, not what it is.
    await this.actions.record('key.regenerated', actor, { clientId: client.id, clientName: client.client_name });
    return client;
  }

  @Post(':id/revoke-key')
  @Answers(on.revokeKey, { summary: "Revoke a client's API key" })
  @HttpCode(200)
  async revoke(@byId(on.revokeKey.request) request: RequestFor<'revokeKey'>, @CurrentActor() actor: AdminActor) {
    const status = await this.rpc.request(on.revokeKey, request);
    await this.actions.record(
      'key.revoked',
      actor,
      { clientId: status.client_id, clientName: null },
      { prefix: status.prefix },
    );
    return status;
  }

  @Get(':id/api-key-status')
  @Answers(on.keyStatus, { summary: "A client's API key status" })
  keyStatus(@byId(on.keyStatus.request) request: RequestFor<'keyStatus'>) {
    return this.rpc.request(on.keyStatus, request);
  }
}
