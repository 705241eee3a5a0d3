import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  clientIdRequestSchema,
  createClientRequestSchema,
  findByKeyRequestSchema,
  subjects,
  updateThresholdsRequestSchema,
  type ApiKeyStatus,
  type Client,
  type ClientWithKey,
  type ListClientsReply,
  type MessageReply,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { AdminActions } from '../audit/admin-actions.publisher.js';
import { bearerToken, bodyOf } from '../auth/caller.js';
import { Credentials } from '../credentials/credentials.js';

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
  ) {}

  @Get()
  list(@Req() req: Request): Promise<ListClientsReply> {
    return this.rpc.request(subjects.clients.list, { accessToken: bearerToken(req) });
  }

  @Post('create')
  @HttpCode(201)
  async create(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ClientWithKey> {
    res.setHeader('cache-control', 'no-store');
    const client = await this.rpc.request<ClientWithKey>(
      subjects.clients.create,
      parseMessage(createClientRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }, 'client'),
    );
    await this.actions.record(
      'client.created',
      req,
      { clientId: client.id, clientName: client.client_name },
      { tier: client.tier },
    );
    return client;
  }

  @Get('api-key/:key')
  findByKey(@Req() req: Request, @Param('key') key: string): Promise<Client> {
    return this.rpc.request(
      subjects.clients.findByKey,
      parseMessage(findByKeyRequestSchema, { accessToken: bearerToken(req), apiKey: key }),
    );
  }

  @Put(':id/thresholds')
  async thresholds(@Req() req: Request, @Param('id') id: string): Promise<Client> {
    const request = parseMessage(
      updateThresholdsRequestSchema,
      { accessToken: bearerToken(req), clientId: id, threshold_config: bodyOf(req).threshold_config },
      'threshold configuration',
    );
    const client = await this.rpc.request<Client>(subjects.clients.updateThresholds, request);
    await this.actions.record(
      'thresholds.changed',
      req,
      { clientId: client.id, clientName: client.client_name },
      { threshold_config: client.threshold_config },
    );
    return client;
  }

  @Delete(':id')
  async remove(@Req() req: Request, @Param('id') id: string): Promise<MessageReply> {
    const request = this.byId(req, id);
    const reply = await this.rpc.request<MessageReply>(subjects.clients.delete, request);
    await this.actions.record('client.deleted', req, { clientId: request.clientId, clientName: null });
    return reply;
  }

  @Post(':id/regenerate-key')
  @HttpCode(200)
  async regenerate(
    @Req() req: Request,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ClientWithKey> {
    res.setHeader('cache-control', 'no-store');
    const client = await this.rpc.request<ClientWithKey>(subjects.clients.regenerateKey, this.byId(req, id));
    // The key itself never leaves this answer: the record says that it changed, not what it is.
    await this.actions.record('key.regenerated', req, { clientId: client.id, clientName: client.client_name });
    return client;
  }

  @Post(':id/revoke-key')
  @HttpCode(200)
  async revoke(@Req() req: Request, @Param('id') id: string): Promise<ApiKeyStatus> {
    const status = await this.rpc.request<ApiKeyStatus>(subjects.clients.revokeKey, this.byId(req, id));
    await this.actions.record(
      'key.revoked',
      req,
      { clientId: status.client_id, clientName: null },
      { prefix: status.prefix },
    );
    return status;
  }

  @Get(':id/api-key-status')
  keyStatus(@Req() req: Request, @Param('id') id: string): Promise<ApiKeyStatus> {
    return this.rpc.request(subjects.clients.keyStatus, this.byId(req, id));
  }

  private byId(req: Request, id: string) {
    return parseMessage(clientIdRequestSchema, { accessToken: bearerToken(req), clientId: id });
  }
}
