import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { securityLogsRequestSchema, subjects, type SecurityLogsResponse } from '@vigil/proto';
import { SecurityLogsRepository } from './security-logs.repository.js';

/** The admin console's security log. The gateway admits admins only (its credentials guard). */
@Controller()
export class SecurityLogsHandler {
  constructor(private readonly logs: SecurityLogsRepository) {}

  @MessagePattern(subjects.audit.securityLogs)
  async list(@Payload() data: unknown): Promise<SecurityLogsResponse> {
    const request = parseMessage(securityLogsRequestSchema, data, 'security logs query');
    return { ...(await this.logs.page(request)), limit: request.limit, offset: request.offset };
  }
}
