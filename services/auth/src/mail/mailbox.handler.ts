import { Controller, Inject } from '@nestjs/common';
import { DomainError, Handles } from '@vigil/platform';
import { type MailboxListReply, contracts, type ParsedRequestOf } from '@vigil/proto';
import { AUTH_CONFIG, devMailboxListed, type AuthConfig } from '../env.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { MailboxRepository } from './mailbox.repository.js';

@Controller()
export class MailboxHandler {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mailbox: MailboxRepository,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * Development only, and administrators only even then: the mailbox holds every user's
   * password-reset links. Anywhere else it does not exist (404), whoever asks.
   */
  @Handles(contracts.auth.mailbox)
  async list(request: ParsedRequestOf<typeof contracts.auth.mailbox>): Promise<MailboxListReply> {
    if (!devMailboxListed(this.config)) throw new DomainError('NOT_FOUND', 'There is no development mailbox here.');
    if (!request.accessToken)
      throw new DomainError('UNAUTHENTICATED', 'Sign in as an administrator to read the development mailbox.');
    await this.sessions.authenticateAdmin(request.accessToken);
    return { messages: await this.mailbox.list(request.to, request.limit) };
  }
}
