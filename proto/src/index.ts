export { SERVICE_NAMES } from './services.js';
export type { ServiceName } from './services.js';
export { subjects, streams, REQUEST_ID_HEADER, REQUEST_ID_PATTERN } from './subjects.js';
export {
  busCalls,
  busPermissions,
  busPermissionsOf,
  durableConsumers,
  inboxPrefixOf,
  requestSubjectsOf,
  streamOwners,
} from './bus.js';
export type { BusPermissions } from './bus.js';
export { ERROR_HTTP_STATUS, ERROR_TITLES, isErrorCode, isRpcError } from './errors.js';
export type { ErrorCode, FieldError, RpcError } from './errors.js';
export { INT4_MIN, INT4_MAX, textProblem, toSafeText, unsafeTextErrors } from './text.js';
export { healthCheckSchema, healthReplySchema } from './health/health.js';
export type { HealthCheck, HealthReply } from './health/health.js';
export { healthResponseSchema, serviceHealthSchema } from './http/health.js';
export type { HealthResponse, ServiceHealth } from './http/health.js';
export type { ProblemDetails } from './http/problem.js';
export {
  emailSchema,
  accessTokenSchema,
  callerContextSchema,
  authenticatedRequestSchema,
  ROLES,
  MEMBER_ROLES,
  memberRoleAtLeast,
  ASSURANCE_LEVELS,
  messageReplySchema,
} from './auth/common.js';
export type {
  Role,
  MemberRole,
  AssuranceLevel,
  CallerContext,
  AuthenticatedRequest,
  MessageReply,
} from './auth/common.js';
export {
  factorSchema,
  identitySchema,
  userSchema,
  sessionSchema,
  accessTokenClaimsSchema,
  assuranceSatisfied,
  sessionInfoSchema,
} from './auth/session.js';
export type { Factor, Identity, User, Session, AccessTokenClaims, SessionInfo } from './auth/session.js';
export {
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  signupRequestSchema,
  signupReplySchema,
  passwordGrantSchema,
  refreshGrantSchema,
  tokenRequestSchema,
  logoutRequestSchema,
  recoverRequestSchema,
  RECOVER_MESSAGE,
  resendRequestSchema,
  RESEND_MESSAGE,
  UNLOCK_MESSAGE,
  SIGNUP_MESSAGE,
  ADMIN_SIGNUP_MESSAGE,
  verifyRequestSchema,
  getUserRequestSchema,
  updateUserRequestSchema,
  listSessionsRequestSchema,
  listSessionsReplySchema,
  revokeSessionRequestSchema,
  unlinkIdentityRequestSchema,
  createInvitationRequestSchema,
  invitationReplySchema,
  userReplySchema,
} from './auth/requests.js';
export type {
  SignupRequest,
  SignupReply,
  TokenRequest,
  PasswordGrant,
  RefreshGrant,
  LogoutRequest,
  RecoverRequest,
  VerifyRequest,
  UpdateUserRequest,
  ListSessionsReply,
  RevokeSessionRequest,
  UnlinkIdentityRequest,
  CreateInvitationRequest,
  InvitationReply,
} from './auth/requests.js';
export {
  enrollFactorRequestSchema,
  enrollFactorReplySchema,
  challengeFactorRequestSchema,
  challengeReplySchema,
  verifyFactorRequestSchema,
  verifyFactorReplySchema,
  unenrollFactorRequestSchema,
} from './auth/mfa.js';
export type {
  EnrollFactorRequest,
  EnrollFactorReply,
  ChallengeFactorRequest,
  ChallengeReply,
  VerifyFactorRequest,
  VerifyFactorReply,
  UnenrollFactorRequest,
} from './auth/mfa.js';
export {
  OIDC_PROVIDERS,
  oidcStartRequestSchema,
  oidcStartReplySchema,
  oidcCallbackRequestSchema,
} from './auth/oidc.js';
export type { OidcProvider, OidcStartRequest, OidcStartReply, OidcCallbackRequest } from './auth/oidc.js';
export { ACCESS_TOKEN_ALGORITHM, jwkSchema, jwksReplySchema } from './auth/jwt.js';
export type { Jwk, JwksReply } from './auth/jwt.js';
export { SECURITY_EVENT_TYPES, failedAuthEventSchema, sessionRevokedEventSchema } from './auth/events.js';
export type { FailedAuthEvent, SessionRevokedEvent } from './auth/events.js';
export { mailboxMessageSchema, mailboxListRequestSchema, mailboxListReplySchema } from './auth/mailbox.js';
export type { MailboxMessage, MailboxListRequest, MailboxListReply } from './auth/mailbox.js';
export { TIERS, SUBSCRIPTION_STATUSES, FEEDS, TIER_LIMITS } from './clients/tiers.js';
export type { Tier, SubscriptionStatus, Feed, TierLimits } from './clients/tiers.js';
export { THRESHOLD_KEYS, thresholdConfigSchema, DEFAULT_THRESHOLDS, thresholdProblems } from './clients/thresholds.js';
export type { ThresholdKey, ThresholdConfig } from './clients/thresholds.js';
export {
  API_KEY_PATTERN,
  API_KEY_PREFIX_LENGTH,
  clientSchema,
  clientWithKeySchema,
  apiKeyStatusSchema,
  listClientsRequestSchema,
  listClientsReplySchema,
  REQUIRED_FIELDS_MESSAGE,
  createClientRequestSchema,
  clientIdRequestSchema,
  CLIENT_NOT_FOUND_BY_KEY,
  findByKeyRequestSchema,
  updateThresholdsRequestSchema,
  resolveKeyRequestSchema,
  resolvedKeySchema,
  keyRevokedEventSchema,
  provisionClientRequestSchema,
  provisionClientReplySchema,
  updateSubscriptionRequestSchema,
} from './clients/clients.js';
export type {
  Client,
  ClientWithKey,
  ApiKeyStatus,
  ListClientsReply,
  CreateClientRequest,
  ClientIdRequest,
  FindByKeyRequest,
  UpdateThresholdsRequest,
  ResolveKeyRequest,
  ResolvedKey,
  KeyRevokedEvent,
  ProvisionClientRequest,
  ProvisionClientReply,
  UpdateSubscriptionRequest,
} from './clients/clients.js';
export {
  notificationSettingsSchema,
  DEFAULT_NOTIFICATION_SETTINGS,
  settingsRequestSchema,
  updateProfileRequestSchema,
  updateNotificationsRequestSchema,
  accountSummarySchema,
} from './clients/settings.js';
export type {
  NotificationSettings,
  UpdateProfileRequest,
  UpdateNotificationsRequest,
  AccountSummary,
} from './clients/settings.js';
export {
  memberRoleSchema,
  teamMemberSchema,
  teamInvitationSchema,
  listMembersReplySchema,
  listInvitationsReplySchema,
  inviteMemberRequestSchema,
  changeMemberRoleRequestSchema,
  invitationPreviewSchema,
  acceptInvitationSignupRequestSchema,
  acceptInvitationRequestSchema,
  lookUpInvitationRequestSchema,
  memberChangedEventSchema,
  resolvedMemberSchema,
} from './clients/team.js';
export type {
  TeamMember,
  TeamInvitation,
  InvitationPreview,
  InviteMemberRequest,
  ChangeMemberRoleRequest,
  AcceptInvitationSignupRequest,
  AcceptInvitationRequest,
  MemberChangedEvent,
  ResolvedMember,
} from './clients/team.js';
export {
  feedSchema,
  tierSchema,
  screeningCallerSchema,
  screeningThresholdsSchema,
  MATCH_STATUSES,
  matchStatusSchema,
  MATCH_LABELS,
  matchLabelSchema,
  matchLabel,
  ENTITY_TYPES,
  entityTypeSchema,
  listVersionRefSchema,
} from './screening/common.js';
export type {
  ScreeningCaller,
  ScreeningThresholds,
  MatchStatus,
  MatchLabel,
  ScreeningEntityType,
  ListVersionRef,
} from './screening/common.js';
export {
  screenEntitySchema,
  screenRequestSchema,
  tokenExplanationSchema,
  qualifierExplanationSchema,
  matchExplanationSchema,
  screenResultSchema,
  screenResponseSchema,
  explainSchema,
  screenResultSummarySchema,
  screenSummaryResponseSchema,
  quotaLeaseRefSchema,
} from './screening/screen.js';
export type {
  ScreenEntity,
  ScreenRequest,
  ParsedScreenRequest,
  TokenExplanation,
  MatchExplanation,
  ScreenResult,
  ScreenResponse,
  Explain,
  ScreenResultSummary,
  ScreenSummaryResponse,
  QuotaLeaseRef,
} from './screening/screen.js';
export {
  BULK_SCREEN_MAX_NAMES,
  bulkScreenRequestSchema,
  bulkMatchSchema,
  bulkItemSchema,
  bulkScreenResponseSchema,
} from './screening/bulk-screen.js';
export type {
  BulkScreenRequest,
  ParsedBulkScreenRequest,
  BulkMatch,
  BulkItem,
  BulkScreenResponse,
} from './screening/bulk-screen.js';
export {
  entityRequestSchema,
  entityNameSchema,
  entityAddressSchema,
  entityIdentifierSchema,
  entityDetailsSchema,
} from './screening/entity.js';
export type { EntityRequest, EntityDetails } from './screening/entity.js';
export {
  LIST_STATUSES,
  listsRequestSchema,
  listInfoSchema,
  listsResponseSchema,
  publicListInfoSchema,
  publicListsResponseSchema,
  DATASET_PAGE_MAX,
  datasetsRequestSchema,
  datasetsResponseSchema,
  refreshRequestSchema,
  REFRESH_OUTCOMES,
  refreshOutcomeSchema,
  refreshResponseSchema,
} from './screening/lists.js';
export type {
  ListInfo,
  ListsResponse,
  PublicListInfo,
  PublicListsResponse,
  DatasetsRequest,
  ParsedDatasetsRequest,
  DatasetsResponse,
  RefreshRequest,
  RefreshOutcome,
  RefreshResponse,
} from './screening/lists.js';
export { searchRequestSchema, searchHitSchema, searchResponseSchema } from './screening/search.js';
export type { SearchRequest, ParsedSearchRequest, SearchHit, SearchResponse } from './screening/search.js';
export {
  LIST_DELTA_MAX_IDS,
  listsUpdatedEventSchema,
  listsRefreshFailedEventSchema,
  screenedEventSchema,
} from './screening/events.js';
export type { ListsUpdatedEvent, ListsRefreshFailedEvent, ScreenedEvent } from './screening/events.js';
export { PLANS, plansResponseSchema, planOf, MOST_POPULAR_TIER, YEARLY_DISCOUNT, yearlyPriceUsd } from './plans.js';
export {
  TIER_REQUIRED_MESSAGE,
  TIER_EMPTY_MESSAGE,
  billingUserSchema,
  requestedTierSchema,
  createCheckoutRequestSchema,
  checkoutSessionReplySchema,
  sandboxSessionRequestSchema,
  sandboxCompleteRequestSchema,
  webhookRequestSchema,
  webhookReplySchema,
  clientRequestSchema,
  clientByEmailRequestSchema,
  subscriptionCheckRequestSchema,
  subscriptionCheckReplySchema,
  upgradeRequestSchema,
  subscriptionActivatedEventSchema,
  tierChangedEventSchema,
  subscriptionStatusEventSchema,
} from './billing/billing.js';
export type {
  BillingUser,
  CreateCheckoutRequest,
  CheckoutSessionReply,
  SandboxSessionQuery,
  SandboxCompleteCommand,
  WebhookRequest,
  WebhookReply,
  SubscriptionCheckReply,
  SubscriptionActivatedEvent,
  TierChangedEvent,
  SubscriptionStatusEvent,
} from './billing/billing.js';
export type { Plan } from './plans.js';
export { addMonth, periodAt, calendarMonthAt } from './billing/periods.js';
export type { SubscriptionPeriod } from './billing/periods.js';
export {
  securityEventSchema,
  SECURITY_EVENT_ENDPOINT_MAX,
  QUOTA_EVENT_TYPES,
  quotaEventSchema,
} from './gateway/events.js';
export type { SecurityEvent, QuotaEvent } from './gateway/events.js';
export { bulkJobChunkSchema, bulkJobCompletedEventSchema } from './gateway/jobs.js';
export type { BulkJobChunk, BulkJobCompletedEvent } from './gateway/jobs.js';
export {
  BULK_SYNC_MAX_NAMES,
  BULK_ASYNC_MAX_NAMES,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  apiScreenRequestSchema,
  apiBulkScreenRequestSchema,
  BULK_JOB_STATUSES,
  apiStatusResponseSchema,
  bulkJobAcceptedSchema,
  bulkJobFailedItemSchema,
  bulkJobItemSchema,
  bulkJobResponseSchema,
} from './http/api-v1.js';
export type {
  BulkJobStatus,
  BulkJobAccepted,
  BulkJobFailedItem,
  BulkJobItem,
  BulkJobResponse,
  ApiStatusResponse,
  ApiScreenRequest,
  ApiBulkScreenRequest,
} from './http/api-v1.js';
export {
  REPORT_KINDS,
  SCREENING_LOG_CSV_COLUMNS,
  dashboardScreenResponseSchema,
  usageDaySchema,
  usageHistoryResponseSchema,
} from './http/dashboard.js';
export type { DashboardScreenResponse, ReportKind, UsageDay, UsageHistoryResponse } from './http/dashboard.js';
export type { ReviewRoutes } from './http/reviews.js';
export type {
  PlansResponse,
  CheckoutSessionRequest,
  CheckoutSessionResponse,
  PortalSessionResponse,
  ClientByEmailResponse,
  UpgradeOption,
  UpgradeOptionsResponse,
  UpgradePreview,
  UpgradeRequest,
  SandboxCheckoutSession,
  SandboxCompleteRequest,
  SandboxCompleteResponse,
  SubscriptionCheckResponse,
  BillingEventType,
  QuotaMonitoringResponse,
  QuotaCheckResponse,
} from './http/billing.js';
export { BILLING_EVENT_TYPES } from './http/billing.js';
export {
  SCREENING_LOGS_PAGE_MAX,
  SCREENING_LOGS_PAGE_DEFAULT,
  screeningLogsRequestSchema,
  screeningLogSchema,
  screeningLogsResponseSchema,
  sanctionAlertsRequestSchema,
  sanctionAlertSchema,
  sanctionAlertsResponseSchema,
  REVIEW_STATUSES,
  reviewStatusSchema,
  reviewsRequestSchema,
  reviewSchema,
  reviewsResponseSchema,
  REVIEW_ACTIONS,
  reviewActionSchema,
  decideReviewRequestSchema,
  decideReviewResponseSchema,
  reviewActionResponseSchema,
  reviewCaseResponseSchema,
  dailyUsageRequestSchema,
  dailyUsageResponseSchema,
  DAILY_USAGE_MAX_DAYS,
  QUOTA_LEASE_ANSWERS_MAX,
  quotaLeaseAnswersRequestSchema,
  quotaLeaseAnswersResponseSchema,
} from './screening/screening-logs.js';
export type {
  DailyUsageRequest,
  DailyUsageResponse,
  ParsedDailyUsageRequest,
  ScreeningLogsRequest,
  ParsedScreeningLogsRequest,
  ScreeningLog,
  ScreeningLogsResponse,
  SanctionAlertsRequest,
  ParsedSanctionAlertsRequest,
  SanctionAlert,
  SanctionAlertsResponse,
  ReviewStatus,
  ReviewsRequest,
  ParsedReviewsRequest,
  Review,
  ReviewsResponse,
  ReviewAction,
  DecideReviewRequest,
  DecideReviewResponse,
  ReviewActionResponse,
  ReviewCaseResponse,
  QuotaLeaseAnswersResponse,
} from './screening/screening-logs.js';
export {
  reviewMemberRoleSchema,
  reviewActorSchema,
  APPROVE_REASON_CODES,
  BLOCK_REASON_CODES,
  REVIEW_REASON_CODES,
  MEMORY_REASON_CODES,
  REVIEW_NOTE_MAX,
  reviewDecisionBodySchema,
  reviewReturnBodySchema,
  reviewCaseRequestSchema,
  confirmReviewRequestSchema,
  returnReviewRequestSchema,
  searchedInputSchema,
  reviewListEntrySchema,
  previousDecisionSchema,
  rememberedDecisionSchema,
  rememberedRequestSchema,
  rememberedResponseSchema,
  revokeRememberedRequestSchema,
  revokeRememberedResponseSchema,
  reviewSettingsSchema,
  reviewSettingsRequestSchema,
  reviewSettingsBodySchema,
  updateReviewSettingsRequestSchema,
  memoryEffectSchema,
} from './screening/reviews.js';
export type {
  ApproveReasonCode,
  BlockReasonCode,
  ReviewReasonCode,
  ReviewActor,
  ReviewDecisionBody,
  ReviewReturnBody,
  ReviewCaseRequest,
  ConfirmReviewRequest,
  ReturnReviewRequest,
  SearchedInput,
  ReviewListEntry,
  PreviousDecision,
  RememberedDecision,
  RememberedRequest,
  ParsedRememberedRequest,
  RememberedResponse,
  RevokeRememberedRequest,
  RevokeRememberedResponse,
  ReviewSettings,
  ReviewSettingsRequest,
  UpdateReviewSettingsRequest,
  MemoryEffect,
} from './screening/reviews.js';
export {
  CLIENT_LIST_MAX_BYTES,
  CLIENT_LIST_MAX_ROWS,
  CLIENT_LIST_PART_BYTES,
  CLIENT_LIST_MAX_PARTS,
  CLIENT_LIST_DOWNLOAD_PAGE_MAX,
  CLIENT_LIST_COLUMNS,
  clientListUploadPartRequestSchema,
  clientListUploadPartReplySchema,
  clientListNameSchema,
  clientListCompleteRequestSchema,
  clientListSchema,
  clientListsRequestSchema,
  clientListsReplySchema,
  clientListDownloadRequestSchema,
  clientListDownloadReplySchema,
  CLIENT_LIST_ENTRIES_PAGE_MAX,
  clientListEntriesRequestSchema,
  clientListEntrySchema,
  clientListEntriesReplySchema,
  clientListDeleteRequestSchema,
  clientListDeleteReplySchema,
} from './monitoring/client-lists.js';
export type {
  ClientListUploadPartRequest,
  ClientListUploadPartReply,
  ClientListCompleteRequest,
  ClientList,
  ClientListsRequest,
  ClientListsReply,
  ClientListDownloadRequest,
  ParsedClientListDownloadRequest,
  ClientListDownloadReply,
  ClientListEntriesRequest,
  ParsedClientListEntriesRequest,
  ClientListEntry,
  ClientListEntriesReply,
  ClientListDeleteRequest,
  ClientListDeleteReply,
} from './monitoring/client-lists.js';
export {
  CHECK_FREQUENCIES,
  MONITORING_STATUSES,
  ALERT_SEVERITIES,
  ENTRY_SCREENING_STATUSES,
  ALERT_TYPES,
  WEBHOOK_EVENT_TYPES,
  MONITORED_ORIGINS,
  MONITORING_PAGE_MAX,
  MONITORING_BULK_MAX,
  monitoringCallerSchema,
  newMonitoredEntitySchema,
  monitoredEntitySchema,
  createMonitoredEntityRequestSchema,
  listMonitoredEntitiesQuerySchema,
  listMonitoredEntitiesRequestSchema,
  monitoredEntitiesReplySchema,
  updateMonitoredEntityBodySchema,
  updateMonitoredEntityRequestSchema,
  monitoredEntityRefRequestSchema,
  deleteMonitoredEntityReplySchema,
  monitoringAlertSchema,
  checkMonitoredEntityReplySchema,
  listAlertsQuerySchema,
  listAlertsRequestSchema,
  alertsReplySchema,
  alertRefRequestSchema,
  monitoringStatsSchema,
  callerOnlyRequestSchema,
  monitoringStatsReplySchema,
  monitoringSettingsSchema,
  DEFAULT_MONITORING_SETTINGS,
  monitoringSettingsChangeSchema,
  updateMonitoringSettingsRequestSchema,
  monitoringSettingsReplySchema,
  bulkAddBodySchema,
  bulkAddRequestSchema,
  bulkAddReplySchema,
  bulkRemoveBodySchema,
  bulkRemoveRequestSchema,
  bulkRemoveReplySchema,
  monitoringServiceStatusSchema,
  monitoringServiceStatusReplySchema,
  createWebhookBodySchema,
  createWebhookRequestSchema,
  webhookEndpointSchema,
  createWebhookReplySchema,
  webhooksReplySchema,
  webhookRefRequestSchema,
  deleteWebhookReplySchema,
  webhookAttemptSchema,
  webhookDeliverySchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesRequestSchema,
  webhookDeliveriesReplySchema,
  monitoringPushSchema,
} from './monitoring/monitoring.js';
export type {
  CheckFrequency,
  MonitoringStatus,
  AlertSeverity,
  EntryScreeningStatus,
  AlertType,
  WebhookEventType,
  MonitoringCaller,
  NewMonitoredEntity,
  MonitoredEntity,
  MonitoringAlert,
  MonitoringPush,
  MonitoringSettings,
  MonitoringStats,
  MonitoredEntitiesReply,
  AlertsReply,
  CheckMonitoredEntityReply,
  BulkAddReply,
  BulkRemoveReply,
  MonitoringServiceStatus,
  WebhookEndpoint,
  CreateWebhookReply,
  WebhookDelivery,
  WebhookAttempt,
  ParsedCreateMonitoredEntityRequest,
  ParsedNewMonitoredEntity,
} from './monitoring/monitoring.js';
export { csvCell, csvLine, toCsv } from './csv.js';
export {
  ADMIN_ACTIONS,
  adminActionEventSchema,
  memoryChangedEventSchema,
  reviewSettingsChangedEventSchema,
  REVIEW_DECISION_STEPS,
  reviewDecidedEventSchema,
} from './audit/events.js';
export type {
  AdminAction,
  AdminActionEvent,
  MemoryChangedEvent,
  ReviewDecidedEvent,
  ReviewSettingsChangedEvent,
} from './audit/events.js';
export {
  SECURITY_LOG_TIME_FILTERS,
  SECURITY_LOGS_PAGE_DEFAULT,
  SECURITY_LOGS_PAGE_MAX,
  securityLogsRequestSchema,
  securityLogSchema,
  securityLogsSummarySchema,
  securityLogsResponseSchema,
  EVIDENCE_KINDS,
  EVIDENCE_PAGE_MAX,
  evidencePageRequestSchema,
  evidenceRecordSchema,
  evidencePageResponseSchema,
} from './audit/requests.js';
export type {
  SecurityLogsRequest,
  ParsedSecurityLogsRequest,
  SecurityLog,
  SecurityLogsSummary,
  SecurityLogsResponse,
  EvidencePageRequest,
  ParsedEvidencePageRequest,
  EvidenceRecord,
  EvidencePageResponse,
} from './audit/requests.js';
export { contract, event } from './contract.js';
export type {
  Contract,
  EventContract,
  RequestOf,
  ParsedRequestOf,
  ReplyOf,
  ReplyInputOf,
  PayloadOf,
} from './contract.js';
export { contracts, events, emptyRequestSchema } from './contracts.js';
export {
  clientByEmailResponseSchema,
  portalSessionResponseSchema,
  quotaCheckResponseSchema,
  quotaMonitoringResponseSchema,
  sandboxCheckoutSessionSchema,
  sandboxCompleteResponseSchema,
  upgradeOptionSchema,
  upgradeOptionsResponseSchema,
  upgradePreviewSchema,
  upgradeResultSchema,
  checkoutSessionResponseSchema,
  checkoutBodySchema,
  sandboxCompleteBodySchema,
  upgradeBodySchema,
} from './http/billing.js';
export type { UpgradeResult } from './http/billing.js';
export { securityLogsQuerySchema, evidenceQuerySchema, evidenceDocumentSchema } from './http/audit.js';
export type { SecurityLogsQuery, EvidenceQuery } from './http/audit.js';
export {
  METRICS_WINDOW_SECONDS_DEFAULT,
  metricsSummaryRequestSchema,
  metricsSummaryReplySchema,
} from './observability/metrics.js';
export type { MetricsSummaryRequest, MetricsSummaryReply } from './observability/metrics.js';
export {
  activeUsersRequestSchema,
  activeUsersReplySchema,
  securityAlertCountRequestSchema,
  securityAlertCountReplySchema,
  totalSearchesRequestSchema,
  totalSearchesReplySchema,
} from './admin/figures.js';
export type {
  ActiveUsersReply,
  SecurityAlertCountRequest,
  SecurityAlertCountReply,
  TotalSearchesReply,
} from './admin/figures.js';
export {
  INGESTION_STAGES,
  LIST_VERSIONS_PAGE_MAX,
  listFailureSchema,
  adminListsRequestSchema,
  adminListSchema,
  INDEX_ENGINES,
  adminListsResponseSchema,
  listVersionsRequestSchema,
  listVersionSchema,
  listVersionsResponseSchema,
} from './screening/list-admin.js';
export type {
  ListFailure,
  AdminList,
  AdminListsResponse,
  ListVersionsRequest,
  ListVersion,
  ListVersionsResponse,
} from './screening/list-admin.js';
export {
  adminServiceFiguresSchema,
  adminOverviewResponseSchema,
  listVersionsQuerySchema,
  listSourceParamSchema,
} from './http/admin.js';
export type { AdminServiceFigures, AdminOverviewResponse, ListVersionsQuery } from './http/admin.js';
