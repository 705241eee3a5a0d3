import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { refreshRequestSchema, subjects, type RefreshResponse } from '@vigil/proto';
import { IngestionService } from './ingestion.service.js';

@Controller()
export class IngestionHandler {
  constructor(private readonly ingestion: IngestionService) {}

  /** Admin-triggered refresh. The gateway restricts who may call it. */
  @MessagePattern(subjects.screening.refresh)
  async refresh(@Payload() data: unknown): Promise<RefreshResponse> {
    const request = parseMessage(refreshRequestSchema, data ?? {}, 'refresh request');
    return { results: await this.ingestion.refreshAll('admin', request.sources, request.force) };
  }
}
