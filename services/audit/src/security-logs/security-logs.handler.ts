import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  contracts,
  type ParsedRequestOf,
  type ParsedSecurityLogsRequest,
  type SecurityAlertCountReply,
  type SecurityLogsResponse,
} from '@vigil/proto';
import { SecurityLogsRepository } from './security-logs.repository.js';

/** The admin console's security log. The gateway admits admins only (its credentials guard). */
@Controller()
export class SecurityLogsHandler {
  constructor(private readonly logs: SecurityLogsRepository) {}

  @Handles(contracts.audit.securityLogs, 'security logs query')
  async list(request: ParsedSecurityLogsRequest): Promise<SecurityLogsResponse> {
    return { ...(await this.logs.page(request)), limit: request.limit, offset: request.offset };
  }

  @Handles(contracts.audit.securityAlertCount, 'security alert count')
  async alertCount(
    request: ParsedRequestOf<typeof contracts.audit.securityAlertCount>,
  ): Promise<SecurityAlertCountReply> {
    const since = new Date(Date.now() - request.sinceHours * 3_600_000);
    return { securityAlerts: await this.logs.alertCount(since), sinceHours: request.sinceHours };
  }
}
