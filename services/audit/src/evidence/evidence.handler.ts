import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type EvidencePageResponse, type ParsedEvidencePageRequest } from '@vigil/proto';
import { EvidenceRepository } from './evidence.repository.js';

/** One page of a client's evidence; the gateway supplies the client id from the caller's own key. */
@Controller()
export class EvidenceHandler {
  constructor(private readonly evidence: EvidenceRepository) {}

  @Handles(contracts.audit.evidence, 'evidence query')
  page(request: ParsedEvidencePageRequest): Promise<EvidencePageResponse> {
    return this.evidence.page(request);
  }
}
