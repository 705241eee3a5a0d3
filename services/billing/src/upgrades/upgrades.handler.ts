import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import { clientRequestSchema, subjects, upgradeRequestSchema, type UpgradeOptionsResponse, type UpgradePreview } from '@vigil/proto';
import { UpgradesService, type UpgradeResult } from './upgrades.service.js';

@Controller()
export class UpgradesHandler {
  constructor(private readonly upgrades: UpgradesService) {}

  @MessagePattern(subjects.billing.upgradeOptions)
  options(@Payload() data: unknown): Promise<UpgradeOptionsResponse> {
    return this.upgrades.options(parseMessage(clientRequestSchema, data).clientId);
  }

  @MessagePattern(subjects.billing.upgradePreview)
  preview(@Payload() data: unknown): Promise<UpgradePreview> {
    const request = parseMessage(upgradeRequestSchema, data);
    return this.upgrades.preview(request.clientId, request.newTier);
  }

  @MessagePattern(subjects.billing.upgrade)
  upgrade(@Payload() data: unknown): Promise<UpgradeResult> {
    const request = parseMessage(upgradeRequestSchema, data);
    return this.upgrades.upgrade(request.clientId, request.newTier);
  }
}
