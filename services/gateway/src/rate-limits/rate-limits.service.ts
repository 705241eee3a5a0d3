import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

export type RateLimitDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

const WINDOW_SECONDS = 60;

/**
 * Per-caller limits over a one-minute window, shared by every replica through Redis.
 * If Redis is unreachable each replica falls back to its own in-memory limiter
 * (the insurance limiter) rather than refusing or waving through all traffic.
 */
@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly redis: Redis | undefined;
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        // Every request asks Redis twice (failed-auth check, then the limit); concurrent
        // requests' commands leave in one write per tick instead of one write each.
        enableAutoPipelining: true,
      });
      this.redis.on('error', (error: Error) => this.logger.warn(`redis: ${error.message}`));
    }
  }

  /** Spends one request of `bucket` (e.g. "client:<id>") against `perMinute`. */
  async consume(bucket: string, perMinute: number): Promise<RateLimitDecision> {
    const limit = Math.max(1, Math.round(perMinute * this.config.RATE_LIMIT_SCALE));
    const limiter = this.limiter(limit);
    try {
      const res = await limiter.consume(bucket, 1);
      return decision(true, limit, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw rejection;
    }
  }

  /** Whether `bucket` has used up `perMinute` already, without spending anything. */
  async exhausted(bucket: string, perMinute: number): Promise<RateLimitDecision | null> {
    const limit = Math.max(1, Math.round(perMinute * this.config.RATE_LIMIT_SCALE));
    const res = await this.limiter(limit).get(bucket);
    return res && res.remainingPoints <= 0 && res.consumedPoints >= limit ? decision(false, limit, res) : null;
  }

  private limiter(points: number): RateLimiterAbstract {
    const key = String(points);
    let limiter = this.limiters.get(key);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl${points}` });
      limiter = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            points,
            duration: WINDOW_SECONDS,
            keyPrefix: `vigil:rl${points}`,
            insuranceLimiter: memory,
          })
        : memory;
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  async onApplicationShutdown() {
    this.redis?.disconnect();
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    // Whole seconds, rounded up, so a client that waits this long is never early.
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
