import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type ChallengeReply,
  type EnrollFactorReply,
  type User,
  type VerifyFactorReply,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { MfaService } from './mfa.service.js';

@Controller()
export class MfaHandler {
  constructor(
    private readonly mfa: MfaService,
    private readonly sessions: SessionsService,
  ) {}

  @Handles(contracts.auth.enrollFactor)
  async enroll(request: ParsedRequestOf<typeof contracts.auth.enrollFactor>): Promise<EnrollFactorReply> {
    // A user who already has a factor must use it before adding another.
    return this.mfa.enroll(await this.sessions.authenticate(request.accessToken), request.friendly_name);
  }

  @Handles(contracts.auth.challengeFactor)
  async challenge(request: ParsedRequestOf<typeof contracts.auth.challengeFactor>): Promise<ChallengeReply> {
    return this.mfa.challenge(await this.sessions.authenticate(request.accessToken, 'aal1'), request.factor_id);
  }

  @Handles(contracts.auth.verifyFactor)
  async verify(request: ParsedRequestOf<typeof contracts.auth.verifyFactor>): Promise<VerifyFactorReply> {
    return this.mfa.verify(await this.sessions.authenticate(request.accessToken, 'aal1'), request, request.ip);
  }

  @Handles(contracts.auth.unenrollFactor)
  async unenroll(request: ParsedRequestOf<typeof contracts.auth.unenrollFactor>): Promise<User> {
    return this.mfa.unenroll(await this.sessions.authenticate(request.accessToken), request.factor_id);
  }
}
