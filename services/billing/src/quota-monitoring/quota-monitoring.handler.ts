import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { subjects, type QuotaCheckResponse, type QuotaMonitoringResponse } from '@vigil/proto';
import { QuotaMonitoringService } from './quota-monitoring.service.js';

/** Admin only: the gateway's guard checks the admin role before it asks. */
@Controller()
export class QuotaMonitoringHandler {
  constructor(private readonly monitoring: QuotaMonitoringService) {}

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
