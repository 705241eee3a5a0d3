import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { UpgradesService } from './upgrades.service.js';

const on = contracts.billing;

@Controller()
export class UpgradesHandler {
  constructor(private readonly upgrades: UpgradesService) {}

  @Handles(on.upgradeOptions)
  options(request: ParsedRequestOf<typeof on.upgradeOptions>) {
    return this.upgrades.options(request.clientId);
  }

  @Handles(on.upgradePreview)
  preview(request: ParsedRequestOf<typeof on.upgradePreview>) {
    return this.upgrades.preview(request.clientId, request.newTier);
  }

  @Handles(on.upgrade)
  upgrade(request: ParsedRequestOf<typeof on.upgrade>) {
    return this.upgrades.upgrade(request.clientId, request.newTier);
  }
}
