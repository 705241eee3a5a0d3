import { Controller, Get, Res } from '@nestjs/common';
import { healthResponseSchema } from '@vigil/proto';
import type { Response } from 'express';
import { z } from 'zod';
import type { HealthResponse } from '@vigil/proto';
import { HealthService } from './health.service.js';
import { Answers } from '../http/answers.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('health')
  @Answers(healthResponseSchema, {
    summary: 'Health of the gateway and every service',
    description: 'Every service is up.',
  })
  @Answers(healthResponseSchema, { status: 503, description: 'A service is down.' })
  async get(@Res({ passthrough: true }) res: Response): Promise<HealthResponse> {
    const body = await this.health.check();
    res.status(body.status === 'ok' ? 200 : 503).setHeader('cache-control', 'no-store');
    return body;
  }

  /** Liveness for orchestrators: the process answers HTTP. Says nothing about dependencies. */
  @Get('livez')
  @Answers(z.object({ status: z.literal('up') }), { summary: 'Liveness' })
  live() {
    return { status: 'up' };
  }
}
