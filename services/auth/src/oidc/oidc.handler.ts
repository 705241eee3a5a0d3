import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { oidcCallbackRequestSchema, oidcStartRequestSchema, subjects, type OidcStartReply, type Session } from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { OidcService } from './oidc.service.js';

@Controller()
export class OidcHandler {
  constructor(
    private readonly oidc: OidcService,
    private readonly sessions: SessionsService,
  ) {}

  @MessagePattern(subjects.auth.oidcStart)
  async start(@Payload() data: unknown): Promise<OidcStartReply> {
    const request = parseMessage(oidcStartRequestSchema, data);
    const linkTo = request.accessToken ? (await this.sessions.authenticate(request.accessToken)).userId : null;
    return this.oidc.start(request.remember_me ?? false, linkTo);
  }

  @MessagePattern(subjects.auth.oidcCallback)
  callback(@Payload() data: unknown): Promise<Session> {
    return this.oidc.callback(parseMessage(oidcCallbackRequestSchema, data));
  }
}
