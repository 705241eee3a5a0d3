import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

export type RateLimitDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

const WINDOW_SECONDS = 60;
/** A chunk takes at most this share of what is left of the window (1/FRACTION): 1 near the limit. */
const FRACTION = 16;
/** A chunk never holds more than ~this long of the bucket's traffic here, nor fewer than MIN_EXTRA beyond the need. */
const CHUNK_TRAFFIC_MS = 500;
const MIN_EXTRA = 4;

// Takes up to `need + extra` requests of the window's budget at once, never past the limit: the
// chunk is sized here from what is left, so replicas racing for the last requests get one each.
// The key and its value are rate-limiter-flexible's (RateLimiterRedis): a count with the window as TTL.
// Returns [taken, count after, ms until the window resets].
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local need, maxExtra, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local free = limit - used
if free <= 0 then
  local ttl = redis.call('PTTL', KEYS[1])
  return {0, used, ttl}
end
local n = math.min(free, need + math.min(maxExtra, math.floor(math.max(0, free - need) / ${FRACTION})))
used = redis.call('INCRBY', KEYS[1], n)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  ttl = tonumber(ARGV[4])
end
return {n, used, ttl}`;

type ChunkRedis = Redis & {
  vigilTakeChunk(key: string, need: number, maxExtra: number, limit: number, windowMs: number): Promise<number[]>;
};

type Waiting = { done: (decision: RateLimitDecision) => void; fail: (error: unknown) => void };

/** One bucket's chunk of the current window on this replica. */
type Chunk = {
  /** Requests taken from the shared window and not yet spent here. */
  unused: number;
  /** The window's shared count as Redis last said (every replica's chunks). */
  count: number;
  /** When the window this chunk belongs to ends (local clock, taken before asking). */
  resetAt: number;
  waiting: Waiting[];
  busy: boolean;
  /** Requests spent here in the current second, and the rate before it: sizes the next chunk. */
  spentThisSecond: number;
  second: number;
  rate: number;
};

/**
 * Per-caller limits over a one-minute window, shared by every replica through Redis without a
 * Redis round trip per request: each replica takes a chunk of the window's budget in one atomic
 * script (large far from the limit, one request near it) and spends it in memory. Redis's count
 * includes every chunk handed out, so all replicas together never pass the limit within a window;
 * a chunk dies with its window. RateLimit-Remaining counts the chunks other replicas took as spent.
 *
 * If Redis is unreachable each replica falls back to its own in-memory limiter (the insurance
 * limiter) rather than refusing or waving through all traffic; with REDIS_URL unset that is all there is.
 */
@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly redis: ChunkRedis | undefined;
  private readonly memory = new Map<number, RateLimiterAbstract>();
  private readonly chunks = new Map<string, Chunk>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        enableAutoPipelining: true,
      }) as ChunkRedis;
      this.redis.on('error', (error: Error) => this.logger.warn(`redis: ${error.message}`));
      this.redis.defineCommand('vigilTakeChunk', { numberOfKeys: 1, lua: TAKE });
    }
  }

  /** Spends one request of `bucket` (e.g. "client:<id>") against `perMinute`. */
  async consume(bucket: string, perMinute: number): Promise<RateLimitDecision> {
    const limit = this.scaled(perMinute);
    if (!this.redis) return this.consumeInMemory(bucket, limit);
    const key = redisKey(bucket, limit);
    let chunk = this.chunks.get(key);
    const now = Date.now();
    if (!chunk || (now >= chunk.resetAt && !chunk.busy)) {
      chunk = { unused: 0, count: 0, resetAt: 0, waiting: [], busy: false, spentThisSecond: 0, second: 0, rate: 0 };
      this.chunks.set(key, chunk);
    }
    if (!chunk.busy && chunk.waiting.length === 0 && chunk.unused > 0 && now < chunk.resetAt)
      return this.spend(chunk, limit, now);
    return new Promise<RateLimitDecision>((done, fail) => {
      chunk.waiting.push({ done, fail });
      void this.refill(key, chunk, limit);
    }).catch((error: unknown) => {
      this.logger.warn(`redis rate limit unavailable, limiting in memory: ${message(error)}`);
      return this.consumeInMemory(bucket, limit);
    });
  }

  /** Whether `bucket` has used up `perMinute` already, without spending anything. */
  async exhausted(bucket: string, perMinute: number): Promise<RateLimitDecision | null> {
    const limit = this.scaled(perMinute);
    if (this.redis) {
      const key = redisKey(bucket, limit);
      try {
        const [count, ttl] = (await this.redis.multi().get(key).pttl(key).exec())!.map(([error, value]) => {
          if (error) throw error;
          return value;
        });
        // Requests this replica took but has not spent are not used yet.
        const chunk = this.chunks.get(key);
        const unspent = chunk && Date.now() < chunk.resetAt ? chunk.unused : 0;
        return Number(count ?? 0) - unspent >= limit ? refused(limit, Number(ttl)) : null;
      } catch (error) {
        this.logger.warn(`redis rate limit unavailable, limiting in memory: ${message(error)}`);
      }
    }
    const res = await this.memoryLimiter(limit).get(bucket);
    return res && res.remainingPoints <= 0 && res.consumedPoints >= limit ? decision(false, limit, res) : null;
  }

  private scaled(perMinute: number) {
    return Math.max(1, Math.round(perMinute * this.config.RATE_LIMIT_SCALE));
  }

  private spend(chunk: Chunk, limit: number, now: number): RateLimitDecision {
    chunk.unused--;
    const second = Math.floor(now / 1000);
    if (second !== chunk.second) {
      chunk.rate = second === chunk.second + 1 ? chunk.spentThisSecond : 0;
      chunk.second = second;
      chunk.spentThisSecond = 0;
    }
    chunk.spentThisSecond++;
    return {
      allowed: true,
      limit,
      remaining: Math.max(0, limit - (chunk.count - chunk.unused)),
      resetSeconds: Math.max(1, Math.ceil((chunk.resetAt - now) / 1000)),
    };
  }

  /** Takes a chunk for everyone waiting on this bucket, in one script call, and answers them in order. */
  private async refill(key: string, chunk: Chunk, limit: number): Promise<void> {
    if (chunk.busy) return;
    chunk.busy = true;
    try {
      while (chunk.waiting.length > 0) {
        const asked = Date.now();
        if (asked >= chunk.resetAt) chunk.unused = 0;
        while (chunk.unused > 0 && chunk.waiting.length > 0)
          chunk.waiting.shift()!.done(this.spend(chunk, limit, asked));
        if (chunk.waiting.length === 0) break;
        const need = chunk.waiting.length;
        const maxExtra = Math.max(MIN_EXTRA, Math.ceil((chunk.rate * CHUNK_TRAFFIC_MS) / 1000));
        let reply: number[];
        try {
          reply = await this.redis!.vigilTakeChunk(key, need, maxExtra, limit, WINDOW_SECONDS * 1000);
        } catch (error) {
          for (const w of chunk.waiting.splice(0)) w.fail(error);
          return;
        }
        const [taken = 0, count = 0, ttl = 0] = reply.map(Number);
        chunk.count = count;
        chunk.resetAt = asked + Math.max(0, ttl);
        chunk.unused += taken;
        if (taken === 0) {
          for (const w of chunk.waiting.splice(0)) w.done(refused(limit, ttl));
          return;
        }
      }
    } finally {
      chunk.busy = false;
    }
  }

  private async consumeInMemory(bucket: string, limit: number): Promise<RateLimitDecision> {
    try {
      return decision(true, limit, await this.memoryLimiter(limit).consume(bucket, 1));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw rejection;
    }
  }

  private memoryLimiter(points: number): RateLimiterAbstract {
    let limiter = this.memory.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl${points}` });
      this.memory.set(points, limiter);
    }
    return limiter;
  }

  /** Gives this replica's unspent chunks back to their windows, so other replicas can spend them. */
  async onApplicationShutdown() {
    if (this.redis) {
      const now = Date.now();
      const back = [...this.chunks].filter(([, c]) => c.unused > 0 && now < c.resetAt - 1_000);
      await Promise.all(back.map(([key, c]) => this.redis!.decrby(key, c.unused).catch(() => undefined)));
    }
    this.redis?.disconnect();
  }
}

/** rate-limiter-flexible's key for a bucket (RateLimiterRedis, keyPrefix `vigil:rl<points>`). */
const redisKey = (bucket: string, limit: number) => `vigil:rl${limit}:${bucket}`;

function refused(limit: number, ttlMs: number): RateLimitDecision {
  // Whole seconds, rounded up, so a client that waits this long is never early.
  return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
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

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
