import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { HealthResponse } from '@vigil/proto';
import { HealthService } from './health.service.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('health')
  async get(@Res({ passthrough: true }) res: Response): Promise<HealthResponse> {
    const body = await this.health.check();
    res.status(body.status === 'ok' ? 200 : 503).setHeader('cache-control', 'no-store');
    return body;
  }

  /** Liveness for orchestrators: the process answers HTTP. Says nothing about dependencies. */
  @Get('livez')
  live() {
    return { status: 'up' };
  }
}
