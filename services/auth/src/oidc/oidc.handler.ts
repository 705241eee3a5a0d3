import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { oidcCallbackRequestSchema, oidcStartRequestSchema, subjects, type OidcStartReply, type Session } from '@vigil/proto';
import { OidcService } from './oidc.service.js';

@Controller()
export class OidcHandler {
  constructor(private readonly oidc: OidcService) {}

  @MessagePattern(subjects.auth.oidcStart)
  start(@Payload() data: unknown): Promise<OidcStartReply> {
    return this.oidc.start(parseMessage(oidcStartRequestSchema, data).remember_me ?? false);
  }

  @MessagePattern(subjects.auth.oidcCallback)
  callback(@Payload() data: unknown): Promise<Session> {
    return this.oidc.callback(parseMessage(oidcCallbackRequestSchema, data));
  }
}
