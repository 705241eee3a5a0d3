import { Inject, Injectable } from '@nestjs/common';
import type { InvitationReply } from '@vigil/proto';
import type { Queryable } from '@vigil/platform';
import { normaliseCode, readableCode, sha256 } from '../crypto/secrets.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { InvitationsRepository } from './invitations.repository.js';

@Injectable()
export class InvitationsService {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly invitations: InvitationsRepository,
  ) {}

  async create(createdBy: string | null, expiresInHours = this.config.INVITATION_TTL_HOURS): Promise<InvitationReply> {
    const code = readableCode();
    const row = await this.invitations.create(sha256(normaliseCode(code)), createdBy, new Date(Date.now() + expiresInHours * 3_600_000));
    return { id: row.id, code, expires_at: row.expires_at.toISOString() };
  }

  consume(code: string, userId: string, q?: Queryable): Promise<boolean> {
    return this.invitations.consume(sha256(normaliseCode(code)), userId, q);
  }

  /** Sign-ups that always take the admin path: the company domain (which is no secret). */
  isAdminDomain(email: string): boolean {
    return email.endsWith(`@${this.config.ADMIN_EMAIL_DOMAIN}`);
  }

  isApproved(email: string): boolean {
    return this.config.ADMIN_EMAILS.includes(email);
  }
}
