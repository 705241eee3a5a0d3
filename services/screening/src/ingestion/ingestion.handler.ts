import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { type RefreshResponse, contracts, type ParsedRequestOf } from '@vigil/proto';
import { IngestionService } from './ingestion.service.js';

@Controller()
export class IngestionHandler {
  constructor(private readonly ingestion: IngestionService) {}

  /** Admin-triggered refresh. The gateway restricts who may call it. */
  @Handles(contracts.screening.refresh, 'refresh request')
  async refresh(request: ParsedRequestOf<typeof contracts.screening.refresh>): Promise<RefreshResponse> {
    return { results: await this.ingestion.refreshAll('admin', request.sources, request.force) };
  }
}
