// The stable error codes clients integrate against. Adding a code is a contract
// change: give it an HTTP status below (the Record makes the compiler insist).
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'INVALID_API_KEY'
  | 'FORBIDDEN'
  | 'ROLE_FORBIDDEN'
  | 'LAST_OWNER'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'SUBSCRIPTION_INACTIVE'
  | 'INDEX_UNAVAILABLE'
  | 'SERVICE_UNAVAILABLE'
  | 'UPSTREAM_TIMEOUT'
  | 'INVALID_CREDENTIALS'
  | 'EMAIL_NOT_CONFIRMED'
  | 'REFRESH_TOKEN_REUSED'
  | 'INVALID_LINK'
  | 'ADMIN_NOT_APPROVED'
  | 'INVITATION_REQUIRED'
  | 'INVALID_INVITATION'
  | 'INVALID_MFA_CODE'
  | 'MFA_REQUIRED'
  | 'MFA_ENROLMENT_REQUIRED'
  | 'FEATURE_NOT_IN_PLAN'
  | 'OIDC_FAILED'
  | 'CUSTOMER_NOT_FOUND'
  | 'INVALID_TIER'
  | 'ALREADY_ON_TIER'
  | 'CANNOT_DOWNGRADE'
  | 'INVALID_UPGRADE_COST'
  | 'UPGRADE_COST_TOO_HIGH'
  | 'PAYMENT_PROCESSING_ERROR'
  | 'CUSTOMER_DELETED'
  | 'INVALID_SIGNATURE'
  | 'PAYMENT_DECLINED'
  | 'FOUR_EYES_SELF_CONFIRM'
  | 'PAYMENT_MESSAGE_INVALID'
  | 'INTERNAL';

export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_API_KEY: 401,
  FORBIDDEN: 403,
  ROLE_FORBIDDEN: 403,
  LAST_OWNER: 409,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  SUBSCRIPTION_INACTIVE: 402,
  INDEX_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  INVALID_CREDENTIALS: 401,
  EMAIL_NOT_CONFIRMED: 403,
  REFRESH_TOKEN_REUSED: 401,
  INVALID_LINK: 400,
  ADMIN_NOT_APPROVED: 403,
  INVITATION_REQUIRED: 403,
  INVALID_INVITATION: 403,
  INVALID_MFA_CODE: 400,
  MFA_REQUIRED: 403,
  MFA_ENROLMENT_REQUIRED: 403,
  FEATURE_NOT_IN_PLAN: 403,
  OIDC_FAILED: 400,
  CUSTOMER_NOT_FOUND: 404,
  INVALID_TIER: 400,
  ALREADY_ON_TIER: 409,
  CANNOT_DOWNGRADE: 400,
  INVALID_UPGRADE_COST: 400,
  UPGRADE_COST_TOO_HIGH: 400,
  PAYMENT_PROCESSING_ERROR: 402,
  CUSTOMER_DELETED: 410,
  INVALID_SIGNATURE: 400,
  PAYMENT_DECLINED: 402,
  FOUR_EYES_SELF_CONFIRM: 403,
  PAYMENT_MESSAGE_INVALID: 400,
  INTERNAL: 500,
};

export const ERROR_TITLES: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'Validation failed',
  BAD_REQUEST: 'Bad request',
  UNAUTHENTICATED: 'Authentication required',
  INVALID_API_KEY: 'Invalid API key',
  FORBIDDEN: 'Forbidden',
  ROLE_FORBIDDEN: 'Not allowed for your role',
  LAST_OWNER: 'A client needs an owner',
  NOT_FOUND: 'Not found',
  ROUTE_NOT_FOUND: 'No such route',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  CONFLICT: 'Conflict',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key reused with a different request',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  RATE_LIMITED: 'Too many requests',
  QUOTA_EXCEEDED: 'Monthly quota exceeded',
  SUBSCRIPTION_INACTIVE: 'Subscription not active',
  INDEX_UNAVAILABLE: 'Screening index unavailable',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  UPSTREAM_TIMEOUT: 'Upstream timeout',
  INVALID_CREDENTIALS: 'Invalid login credentials',
  EMAIL_NOT_CONFIRMED: 'Email not confirmed',
  REFRESH_TOKEN_REUSED: 'Refresh token already used',
  INVALID_LINK: 'Invalid or expired link',
  ADMIN_NOT_APPROVED: 'Access Denied',
  INVITATION_REQUIRED: 'Invitation Required',
  INVALID_INVITATION: 'Invalid Invitation',
  INVALID_MFA_CODE: 'Invalid verification code',
  MFA_REQUIRED: 'Second factor required',
  MFA_ENROLMENT_REQUIRED: 'Second factor enrolment required',
  FEATURE_NOT_IN_PLAN: 'Not included in your plan',
  OIDC_FAILED: 'Provider sign-in failed',
  CUSTOMER_NOT_FOUND: 'Customer not found',
  INVALID_TIER: 'Invalid tier',
  ALREADY_ON_TIER: 'Already on this tier',
  CANNOT_DOWNGRADE: 'Cannot downgrade',
  INVALID_UPGRADE_COST: 'Invalid upgrade cost',
  UPGRADE_COST_TOO_HIGH: 'Upgrade cost too high',
  PAYMENT_PROCESSING_ERROR: 'Payment processing error',
  CUSTOMER_DELETED: 'Customer deleted',
  INVALID_SIGNATURE: 'Invalid webhook signature',
  PAYMENT_DECLINED: 'Payment declined',
  FOUR_EYES_SELF_CONFIRM: 'A second person must confirm',
  PAYMENT_MESSAGE_INVALID: 'Payment message invalid',
  INTERNAL: 'Internal error',
};

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_HTTP_STATUS, value);

/** One field-level problem; `pointer` is a JSON Pointer (RFC 6901) into the request. */
export type FieldError = { pointer: string; detail: string };

/** What crosses NATS when a handler fails. Never a stack trace. */
export type RpcError = {
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
  retryAfterSeconds?: number;
};

export const isRpcError = (value: unknown): value is RpcError =>
  typeof value === 'object' &&
  value !== null &&
  isErrorCode((value as { code?: unknown }).code) &&
  typeof (value as { message?: unknown }).message === 'string';
