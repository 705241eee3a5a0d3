export { SERVICE_NAMES } from './services.js';
export type { ServiceName } from './services.js';
export { subjects, REQUEST_ID_HEADER } from './subjects.js';
export { ERROR_HTTP_STATUS, ERROR_TITLES, isErrorCode, isRpcError } from './errors.js';
export type { ErrorCode, FieldError, RpcError } from './errors.js';
export { healthCheckSchema, healthReplySchema } from './health/health.js';
export type { HealthCheck, HealthReply } from './health/health.js';
export type { HealthResponse, ServiceHealth } from './http/health.js';
export type { ProblemDetails } from './http/problem.js';
