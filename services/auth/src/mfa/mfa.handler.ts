import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  challengeFactorRequestSchema,
  enrollFactorRequestSchema,
  subjects,
  unenrollFactorRequestSchema,
  verifyFactorRequestSchema,
  type ChallengeReply,
  type EnrollFactorReply,
  type User,
  type VerifyFactorReply,
} from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { MfaService } from './mfa.service.js';

@Controller()
export class MfaHandler {
  constructor(
    private readonly mfa: MfaService,
    private readonly sessions: SessionsService,
  ) {}

  @MessagePattern(subjects.auth.enrollFactor)
  async enroll(@Payload() data: unknown): Promise<EnrollFactorReply> {
    const request = parseMessage(enrollFactorRequestSchema, data);
    // A user who already has a factor must use it before adding another.
    return this.mfa.enroll(await this.sessions.authenticate(request.accessToken), request.friendly_name);
  }

  @MessagePattern(subjects.auth.challengeFactor)
  async challenge(@Payload() data: unknown): Promise<ChallengeReply> {
    const request = parseMessage(challengeFactorRequestSchema, data);
    return this.mfa.challenge(await this.sessions.authenticate(request.accessToken, 'aal1'), request.factor_id);
  }

  @MessagePattern(subjects.auth.verifyFactor)
  async verify(@Payload() data: unknown): Promise<VerifyFactorReply> {
    const request = parseMessage(verifyFactorRequestSchema, data);
    return this.mfa.verify(await this.sessions.authenticate(request.accessToken, 'aal1'), request, request.ip);
  }

  @MessagePattern(subjects.auth.unenrollFactor)
  async unenroll(@Payload() data: unknown): Promise<User> {
    const request = parseMessage(unenrollFactorRequestSchema, data);
    return this.mfa.unenroll(await this.sessions.authenticate(request.accessToken), request.factor_id);
  }
}
