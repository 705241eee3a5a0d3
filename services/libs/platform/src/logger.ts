import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { currentRequestId } from './context.js';
import { currentTraceIds } from './tracing.js';

export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    // Every line carries the request id of the work it belongs to, across services.
    // and the OpenTelemetry trace it is part of (W3C ids), so one request's lines join up in every service's logs.
    mixin: () => {
      const requestId = currentRequestId();
      const trace = currentTraceIds();
      return { ...(requestId ? { requestId } : {}), ...(trace ?? {}) };
    },
    redact: { paths: ['*.password', '*.apiKey', '*.authorization', 'headers["x-api-key"]'], censor: '[redacted]' },
  });
}

/** Nest's logger interface over pino, so framework and app logs share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
