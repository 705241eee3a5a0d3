import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DomainError, parseMessage } from '@vigil/platform';
import { mailboxListRequestSchema, subjects, type MailboxListReply } from '@vigil/proto';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { MailboxRepository } from './mailbox.repository.js';

@Controller()
export class MailboxHandler {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mailbox: MailboxRepository,
  ) {}

  /** Development only: with real SMTP there is nothing to show. */
  @MessagePattern(subjects.auth.mailbox)
  async list(@Payload() data: unknown): Promise<MailboxListReply> {
    if (this.config.MAIL_TRANSPORT !== 'mailbox') throw new DomainError('NOT_FOUND', 'The development mailbox is off (MAIL_TRANSPORT=smtp).');
    const request = parseMessage(mailboxListRequestSchema, data);
    return { messages: await this.mailbox.list(request.to, request.limit) };
  }
}
