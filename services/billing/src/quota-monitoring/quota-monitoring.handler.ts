import { Controller } from '@nestjs/common';
import { Handles, OnEvent } from '@vigil/platform';
import {
  contracts,
  events,
  type QuotaCheckResponse,
  type QuotaEvent,
  type QuotaMonitoringResponse,
} from '@vigil/proto';
import { QuotaMonitoringService } from './quota-monitoring.service.js';

/** Admin only: the gateway's guard checks the admin role before it asks. */
@Controller()
export class QuotaMonitoringHandler {
  constructor(private readonly monitoring: QuotaMonitoringService) {}

  /** The gateway's threshold crossings (plain JSON on the QUOTA stream's subjects); a malformed one is logged and dropped. */
  @OnEvent(events.gateway.quotaWarning)
  async quotaWarning(event: QuotaEvent): Promise<void> {
    await this.monitoring.recordGatewayEvent(event);
  }

  @OnEvent(events.gateway.quotaExceeded)
  async quotaExceeded(event: QuotaEvent): Promise<void> {
    await this.monitoring.recordGatewayEvent(event);
  }

  @Handles(contracts.billing.quotaMonitoring)
  overview(): Promise<QuotaMonitoringResponse> {
    return this.monitoring.overview();
  }

  @Handles(contracts.billing.checkWarnings)
  checkWarnings(): Promise<QuotaCheckResponse> {
    return this.monitoring.checkWarnings();
  }

  @Handles(contracts.billing.checkPayments)
  checkPayments(): Promise<QuotaCheckResponse> {
    return this.monitoring.checkPayments();
  }
}
