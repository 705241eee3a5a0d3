import { Controller, Delete, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import type { Response } from 'express';
import { AccessToken, ZodRequest } from '../http/route-params.js';

const on = contracts.clients;
type RequestFor<K extends Exclude<keyof typeof on, 'settings'>> = ParsedRequestOf<(typeof on)[K]>;
/** The admin's token and the client named by the path: what every per-client route sends. */
const byId = (schema: typeof on.delete.request) => ZodRequest(schema, 'message', { body: false, accessToken: true, params: { clientId: 'id' } });

/** /api/client/clients/*: the admin console's client administration. The auth service checks the admin role. */
@Controller('api/client/clients')
export class ClientsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@AccessToken() accessToken: string) {
    return this.rpc.request(on.list, { accessToken });
  }

  @Post('create')
  @HttpCode(201)
  create(@ZodRequest(on.create.request, 'client', { accessToken: true }) request: RequestFor<'create'>, @Res({ passthrough: true }) res: Response) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.create, request);
  }

  @Get('api-key/:key')
  findByKey(@ZodRequest(on.findByKey.request, 'message', { body: false, accessToken: true, params: { apiKey: 'key' } }) request: RequestFor<'findByKey'>) {
    return this.rpc.request(on.findByKey, request);
  }

  @Put(':id/thresholds')
  thresholds(
    @ZodRequest(on.updateThresholds.request, 'threshold configuration', { accessToken: true, params: { clientId: 'id' } }) request: RequestFor<'updateThresholds'>,
  ) {
    return this.rpc.request(on.updateThresholds, request);
  }

  @Delete(':id')
  remove(@byId(on.delete.request) request: RequestFor<'delete'>) {
    return this.rpc.request(on.delete, request);
  }

  @Post(':id/regenerate-key')
  @HttpCode(200)
  regenerate(@byId(on.regenerateKey.request) request: RequestFor<'regenerateKey'>, @Res({ passthrough: true }) res: Response) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.regenerateKey, request);
  }

  @Post(':id/revoke-key')
  @HttpCode(200)
  revoke(@byId(on.revokeKey.request) request: RequestFor<'revokeKey'>) {
    return this.rpc.request(on.revokeKey, request);
  }

  @Get(':id/api-key-status')
  keyStatus(@byId(on.keyStatus.request) request: RequestFor<'keyStatus'>) {
    return this.rpc.request(on.keyStatus, request);
  }
}
