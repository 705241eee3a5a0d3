import { Controller, Inject } from '@nestjs/common';
import { DomainError, Handles } from '@vigil/platform';
import { type MailboxListReply, contracts, type ParsedRequestOf } from '@vigil/proto';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { MailboxRepository } from './mailbox.repository.js';

@Controller()
export class MailboxHandler {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mailbox: MailboxRepository,
  ) {}

  /** Development only: with real SMTP there is nothing to show. */
  @Handles(contracts.auth.mailbox)
  async list(request: ParsedRequestOf<typeof contracts.auth.mailbox>): Promise<MailboxListReply> {
    if (this.config.MAIL_TRANSPORT !== 'mailbox')
      throw new DomainError('NOT_FOUND', 'The development mailbox is off (MAIL_TRANSPORT=smtp).');
    return { messages: await this.mailbox.list(request.to, request.limit) };
  }
}
