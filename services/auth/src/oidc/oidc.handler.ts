import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { type OidcStartReply, type Session, contracts, type ParsedRequestOf } from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { OidcService } from './oidc.service.js';

@Controller()
export class OidcHandler {
  constructor(
    private readonly oidc: OidcService,
    private readonly sessions: SessionsService,
  ) {}

  @Handles(contracts.auth.oidcStart)
  async start(request: ParsedRequestOf<typeof contracts.auth.oidcStart>): Promise<OidcStartReply> {
    const linkTo = request.accessToken ? (await this.sessions.authenticate(request.accessToken)).userId : null;
    return this.oidc.start(request.remember_me ?? false, linkTo);
  }

  @Handles(contracts.auth.oidcCallback)
  callback(request: ParsedRequestOf<typeof contracts.auth.oidcCallback>): Promise<Session> {
    return this.oidc.callback(request);
  }
}
