import { Controller, type OnApplicationBootstrap } from '@nestjs/common';
import { Handles, Responder } from '@vigil/platform';
import { type BulkScreenResponse, contracts, type ParsedRequestOf } from '@vigil/proto';
import { ScreeningService } from './screening.service.js';

@Controller()
export class ScreeningHandler implements OnApplicationBootstrap {
  constructor(
    private readonly screening: ScreeningService,
    private readonly responder: Responder,
  ) {}

  /**
   * screening.v1.screen, the request behind every POST /api/v1/screen, is answered straight from
   * its subscription (Responder: same envelope, validation, reply check, request id, trace,
   * metrics and log line as @Handles), not through Nest's per-message pipeline.
   */
  onApplicationBootstrap(): void {
    this.responder.serve(contracts.screening.screen, (request) => this.screening.screen(request), 'screening request');
  }

  /** The gateway's: logged as run by the member, key or bulk job it names. */
  @Handles(contracts.screening.bulkScreen, 'bulk screening request')
  bulkScreen(request: ParsedRequestOf<typeof contracts.screening.bulkScreen>): Promise<BulkScreenResponse> {
    return this.screening.bulkScreen(request, request.actor ?? null);
  }

  /** Monitoring's alone (bus permissions): logged as run by monitoring, whatever else it says. */
  @Handles(contracts.screening.rescreen, 'monitoring re-screen request')
  rescreen(request: ParsedRequestOf<typeof contracts.screening.rescreen>): Promise<BulkScreenResponse> {
    return this.screening.bulkScreen(request, { kind: 'monitoring' });
  }
}
