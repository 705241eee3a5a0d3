import { Controller, Logger } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { quotaEventSchema, subjects, type QuotaCheckResponse, type QuotaMonitoringResponse } from '@vigil/proto';
import { QuotaMonitoringService } from './quota-monitoring.service.js';

/** Admin only: the gateway's guard checks the admin role before it asks. */
@Controller()
export class QuotaMonitoringHandler {
  private readonly logger = new Logger(QuotaMonitoringHandler.name);

  constructor(private readonly monitoring: QuotaMonitoringService) {}

  /** The gateway's threshold crossings (plain JSON on the QUOTA stream's subjects). */
  @EventPattern(subjects.gateway.quotaWarning)
  quotaWarning(@Payload() data: unknown): Promise<void> {
    return this.quotaEvent(data);
  }

  @EventPattern(subjects.gateway.quotaExceeded)
  quotaExceeded(@Payload() data: unknown): Promise<void> {
    return this.quotaEvent(data);
  }

  private async quotaEvent(data: unknown): Promise<void> {
    const parsed = quotaEventSchema.safeParse(data);
    if (!parsed.success) {
      this.logger.warn(`ignored a malformed quota event: ${parsed.error.message}`);
      return;
    }
    await this.monitoring.recordGatewayEvent(parsed.data);
  }

  @MessagePattern(subjects.billing.quotaMonitoring)
  overview(): Promise<QuotaMonitoringResponse> {
    return this.monitoring.overview();
  }

  @MessagePattern(subjects.billing.checkWarnings)
  checkWarnings(): Promise<QuotaCheckResponse> {
    return this.monitoring.checkWarnings();
  }

  @MessagePattern(subjects.billing.checkPayments)
  checkPayments(): Promise<QuotaCheckResponse> {
    return this.monitoring.checkPayments();
  }
}
