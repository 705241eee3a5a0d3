import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { type BulkScreenResponse, type ScreenResponse, type ScreenSummaryResponse, contracts, type ParsedRequestOf } from '@vigil/proto';
import { ScreeningService } from './screening.service.js';

@Controller()
export class ScreeningHandler {
  constructor(private readonly screening: ScreeningService) {}

  @Handles(contracts.screening.screen, 'screening request')
  screen(request: ParsedRequestOf<typeof contracts.screening.screen>): Promise<ScreenResponse | ScreenSummaryResponse> {
    return this.screening.screen(request);
  }

  @Handles(contracts.screening.bulkScreen, 'bulk screening request')
  bulkScreen(request: ParsedRequestOf<typeof contracts.screening.bulkScreen>): Promise<BulkScreenResponse> {
    return this.screening.bulkScreen(request);
  }
}
