import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { evidencePageRequestSchema, subjects, type EvidencePageResponse } from '@vigil/proto';
import { EvidenceRepository } from './evidence.repository.js';

/** One page of a client's evidence; the gateway supplies the client id from the caller's own key. */
@Controller()
export class EvidenceHandler {
  constructor(private readonly evidence: EvidenceRepository) {}

  @MessagePattern(subjects.audit.evidence)
  page(@Payload() data: unknown): Promise<EvidencePageResponse> {
    return this.evidence.page(parseMessage(evidencePageRequestSchema, data, 'evidence query'));
  }
}
