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
import { bearerToken, bodyOf } from '../auth/caller.js';

/** /api/client/clients/*: the admin console's client administration. The auth service checks the admin role. */
@Controller('api/client/clients')
export class ClientsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Req() req: Request): Promise<ListClientsReply> {
    return this.rpc.request(subjects.clients.list, { accessToken: bearerToken(req) });
  }

  @Post('create')
  @HttpCode(201)
  create(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ClientWithKey> {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.clients.create, parseMessage(createClientRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }, 'client'));
  }

  @Get('api-key/:key')
  findByKey(@Req() req: Request, @Param('key') key: string): Promise<Client> {
    return this.rpc.request(subjects.clients.findByKey, parseMessage(findByKeyRequestSchema, { accessToken: bearerToken(req), apiKey: key }));
  }

  @Put(':id/thresholds')
  thresholds(@Req() req: Request, @Param('id') id: string): Promise<Client> {
    const body = bodyOf(req);
    return this.rpc.request(
      subjects.clients.updateThresholds,
      parseMessage(updateThresholdsRequestSchema, { accessToken: bearerToken(req), clientId: id, threshold_config: body.threshold_config }, 'threshold configuration'),
    );
  }

  @Delete(':id')
  remove(@Req() req: Request, @Param('id') id: string): Promise<MessageReply> {
    return this.rpc.request(subjects.clients.delete, this.byId(req, id));
  }

  @Post(':id/regenerate-key')
  @HttpCode(200)
  regenerate(@Req() req: Request, @Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<ClientWithKey> {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.clients.regenerateKey, this.byId(req, id));
  }

  @Post(':id/revoke-key')
  @HttpCode(200)
  revoke(@Req() req: Request, @Param('id') id: string): Promise<ApiKeyStatus> {
    return this.rpc.request(subjects.clients.revokeKey, this.byId(req, id));
  }

  @Get(':id/api-key-status')
  keyStatus(@Req() req: Request, @Param('id') id: string): Promise<ApiKeyStatus> {
    return this.rpc.request(subjects.clients.keyStatus, this.byId(req, id));
  }

  private byId(req: Request, id: string) {
    return parseMessage(clientIdRequestSchema, { accessToken: bearerToken(req), clientId: id });
  }
}
