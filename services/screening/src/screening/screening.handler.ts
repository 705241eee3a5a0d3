import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { bulkScreenRequestSchema, screenRequestSchema, subjects, type BulkScreenResponse, type ScreenResponse } from '@vigil/proto';
import { ScreeningService } from './screening.service.js';

@Controller()
export class ScreeningHandler {
  constructor(private readonly screening: ScreeningService) {}

  @MessagePattern(subjects.screening.screen)
  screen(@Payload() data: unknown): Promise<ScreenResponse> {
    return this.screening.screen(parseMessage(screenRequestSchema, data, 'screening request'));
  }

  @MessagePattern(subjects.screening.bulkScreen)
  bulkScreen(@Payload() data: unknown): Promise<BulkScreenResponse> {
    return this.screening.bulkScreen(parseMessage(bulkScreenRequestSchema, data, 'bulk screening request'));
  }
}
