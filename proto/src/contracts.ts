import { z } from 'zod';
import { messageReplySchema } from './auth/common.js';
import { failedAuthEventSchema, sessionRevokedEventSchema } from './auth/events.js';
import { jwksReplySchema } from './auth/jwt.js';
import { mailboxListReplySchema, mailboxListRequestSchema } from './auth/mailbox.js';
import {
  challengeFactorRequestSchema,
  challengeReplySchema,
  enrollFactorReplySchema,
  enrollFactorRequestSchema,
  unenrollFactorRequestSchema,
  verifyFactorReplySchema,
  verifyFactorRequestSchema,
} from './auth/mfa.js';
import { oidcCallbackRequestSchema, oidcStartReplySchema, oidcStartRequestSchema } from './auth/oidc.js';
import {
  createInvitationRequestSchema,
  getUserRequestSchema,
  invitationReplySchema,
  listSessionsReplySchema,
  listSessionsRequestSchema,
  logoutRequestSchema,
  recoverRequestSchema,
  resendRequestSchema,
  revokeSessionRequestSchema,
  signupReplySchema,
  signupRequestSchema,
  tokenRequestSchema,
  unlinkIdentityRequestSchema,
  updateUserRequestSchema,
  verifyRequestSchema,
} from './auth/requests.js';
import { sessionSchema, userSchema } from './auth/session.js';
import {
  checkoutSessionReplySchema,
  clientByEmailRequestSchema,
  clientRequestSchema,
  createCheckoutRequestSchema,
  sandboxCompleteRequestSchema,
  sandboxSessionRequestSchema,
  subscriptionActivatedEventSchema,
  subscriptionCheckReplySchema,
  subscriptionCheckRequestSchema,
  subscriptionStatusEventSchema,
  tierChangedEventSchema,
  upgradeRequestSchema,
  webhookReplySchema,
  webhookRequestSchema,
} from './billing/billing.js';
import {
  apiKeyStatusSchema,
  clientIdRequestSchema,
  clientSchema,
  clientWithKeySchema,
  createClientRequestSchema,
  findByKeyRequestSchema,
  keyRevokedEventSchema,
  listClientsReplySchema,
  listClientsRequestSchema,
  provisionClientReplySchema,
  provisionClientRequestSchema,
  resolvedKeySchema,
  resolveKeyRequestSchema,
  updateSubscriptionRequestSchema,
  updateThresholdsRequestSchema,
} from './clients/clients.js';
import {
  accountSummarySchema,
  notificationSettingsSchema,
  settingsRequestSchema,
  updateNotificationsRequestSchema,
  updateProfileRequestSchema,
} from './clients/settings.js';
import {
  acceptInvitationRequestSchema,
  acceptInvitationSignupRequestSchema,
  changeMemberRoleRequestSchema,
  invitationPreviewSchema,
  inviteMemberRequestSchema,
  listInvitationsReplySchema,
  listMembersReplySchema,
  listTeamRequestSchema,
  lookUpInvitationRequestSchema,
  memberChangedEventSchema,
  removeMemberRequestSchema,
  resolvedMemberSchema,
  resolveMemberRequestSchema,
  revokeInvitationRequestSchema,
  teamInvitationSchema,
  teamMemberSchema,
} from './clients/team.js';
import { contract, event } from './contract.js';
import { quotaEventSchema, securityEventSchema } from './gateway/events.js';
import { bulkJobChunkSchema } from './gateway/jobs.js';
import { healthReplySchema } from './health/health.js';
import {
  clientByEmailResponseSchema,
  portalSessionResponseSchema,
  quotaCheckResponseSchema,
  quotaMonitoringResponseSchema,
  sandboxCheckoutSessionSchema,
  sandboxCompleteResponseSchema,
  upgradeOptionsResponseSchema,
  upgradePreviewSchema,
  upgradeResultSchema,
} from './http/billing.js';
import {
  clientListCompleteRequestSchema,
  clientListDeleteReplySchema,
  clientListDeleteRequestSchema,
  clientListDownloadReplySchema,
  clientListDownloadRequestSchema,
  clientListEntriesReplySchema,
  clientListEntriesRequestSchema,
  clientListSchema,
  clientListsReplySchema,
  clientListsRequestSchema,
  clientListUploadPartReplySchema,
  clientListUploadPartRequestSchema,
} from './monitoring/client-lists.js';
import {
  alertRefRequestSchema,
  alertsReplySchema,
  bulkAddReplySchema,
  bulkAddRequestSchema,
  bulkRemoveReplySchema,
  bulkRemoveRequestSchema,
  callerOnlyRequestSchema,
  checkMonitoredEntityReplySchema,
  createMonitoredEntityRequestSchema,
  createWebhookReplySchema,
  createWebhookRequestSchema,
  deleteMonitoredEntityReplySchema,
  deleteWebhookReplySchema,
  listAlertsRequestSchema,
  listMonitoredEntitiesRequestSchema,
  monitoredEntitiesReplySchema,
  monitoredEntityRefRequestSchema,
  monitoredEntitySchema,
  monitoringAlertSchema,
  monitoringServiceStatusReplySchema,
  monitoringSettingsReplySchema,
  monitoringStatsReplySchema,
  updateMonitoredEntityRequestSchema,
  updateMonitoringSettingsRequestSchema,
  webhookDeliveriesReplySchema,
  webhookDeliveriesRequestSchema,
  webhookRefRequestSchema,
  deleteWebhookRequestSchema,
  rotateWebhookSecretRequestSchema,
  webhooksReplySchema,
  testWebhookReplySchema,
} from './monitoring/monitoring.js';
import { bulkJobCompletedEventSchema } from './gateway/jobs.js';
import { bulkScreenRequestSchema, bulkScreenResponseSchema, rescreenRequestSchema } from './screening/bulk-screen.js';
import { entityDetailsSchema, entityRequestSchema } from './screening/entity.js';
import { listsRefreshFailedEventSchema, listsUpdatedEventSchema, screenedEventSchema } from './screening/events.js';
import {
  datasetsRequestSchema,
  datasetsResponseSchema,
  listsRequestSchema,
  listsResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
} from './screening/lists.js';
import { paymentScreenRequestSchema, paymentScreenResponseSchema } from './screening/payment.js';
import { screenRequestSchema, screenSummaryResponseSchema } from './screening/screen.js';
import {
  adminListsRequestSchema,
  adminListsResponseSchema,
  listVersionsRequestSchema,
  listVersionsResponseSchema,
} from './screening/list-admin.js';
import { metricsSummaryReplySchema, metricsSummaryRequestSchema } from './observability/metrics.js';
import {
  activeUsersReplySchema,
  activeUsersRequestSchema,
  securityAlertCountReplySchema,
  securityAlertCountRequestSchema,
  totalSearchesReplySchema,
  totalSearchesRequestSchema,
} from './admin/figures.js';
import {
  dailyUsageRequestSchema,
  dailyUsageResponseSchema,
  quotaLeaseAnswersRequestSchema,
  quotaLeaseAnswersResponseSchema,
  decideReviewRequestSchema,
  decideReviewResponseSchema,
  reviewActionResponseSchema,
  reviewCaseResponseSchema,
  reviewsRequestSchema,
  reviewsResponseSchema,
  sanctionAlertsRequestSchema,
  sanctionAlertsResponseSchema,
  screeningLogsRequestSchema,
  screeningLogsResponseSchema,
} from './screening/screening-logs.js';
import {
  confirmReviewRequestSchema,
  rememberedRequestSchema,
  rememberedResponseSchema,
  returnReviewRequestSchema,
  reviewCaseRequestSchema,
  reviewSettingsRequestSchema,
  reviewSettingsSchema,
  revokeRememberedRequestSchema,
  revokeRememberedResponseSchema,
  updateReviewSettingsRequestSchema,
} from './screening/reviews.js';
import { searchRequestSchema, searchResponseSchema } from './screening/search.js';
import type { ServiceName } from './services.js';
import { subjects } from './subjects.js';
import {
  adminActionEventSchema,
  memoryChangedEventSchema,
  reviewDecidedEventSchema,
  reviewSettingsChangedEventSchema,
  clientChangedEventSchema,
  monitoringChangedEventSchema,
} from './audit/events.js';
import {
  evidencePageRequestSchema,
  evidencePageResponseSchema,
  securityLogsRequestSchema,
  securityLogsResponseSchema,
} from './audit/requests.js';

/** A request that carries nothing (admin triggers, catalogue reads, health). */
export const emptyRequestSchema = z.object({});

/**
 * Every NATS request/reply subject and every event, with its schemas: the wire contract
 * the platform executes (`RpcClient.request(contract, …)`, `@Handles(contract)`,
 * `EventsPublisher.publish(event, …)`). Subjects stay in `subjects.ts`; this is what travels on them.
 */
export const contracts = {
  health: (service: ServiceName) => contract(subjects.health(service), emptyRequestSchema, healthReplySchema),
  metricsSummary: (service: ServiceName) =>
    contract(subjects.metricsSummary(service), metricsSummaryRequestSchema, metricsSummaryReplySchema),
  screening: {
    screen: contract(subjects.screening.screen, screenRequestSchema, screenSummaryResponseSchema),
    bulkScreen: contract(subjects.screening.bulkScreen, bulkScreenRequestSchema, bulkScreenResponseSchema),
    screenPayment: contract(subjects.screening.screenPayment, paymentScreenRequestSchema, paymentScreenResponseSchema),
    rescreen: contract(subjects.screening.rescreen, rescreenRequestSchema, bulkScreenResponseSchema),
    entity: contract(subjects.screening.entity, entityRequestSchema, entityDetailsSchema),
    lists: contract(subjects.screening.lists, listsRequestSchema, listsResponseSchema),
    datasets: contract(subjects.screening.datasets, datasetsRequestSchema, datasetsResponseSchema),
    search: contract(subjects.screening.search, searchRequestSchema, searchResponseSchema),
    refresh: contract(subjects.screening.refresh, refreshRequestSchema, refreshResponseSchema),
    adminLists: contract(subjects.screening.adminLists, adminListsRequestSchema, adminListsResponseSchema),
    listVersions: contract(subjects.screening.listVersions, listVersionsRequestSchema, listVersionsResponseSchema),
    totalSearches: contract(subjects.screening.totalSearches, totalSearchesRequestSchema, totalSearchesReplySchema),
    logs: contract(subjects.screening.logs, screeningLogsRequestSchema, screeningLogsResponseSchema),
    dailyUsage: contract(subjects.screening.dailyUsage, dailyUsageRequestSchema, dailyUsageResponseSchema),
    quotaLeaseAnswers: contract(
      subjects.screening.quotaLeaseAnswers,
      quotaLeaseAnswersRequestSchema,
      quotaLeaseAnswersResponseSchema,
    ),
    alerts: contract(subjects.screening.alerts, sanctionAlertsRequestSchema, sanctionAlertsResponseSchema),
    reviews: contract(subjects.screening.reviews, reviewsRequestSchema, reviewsResponseSchema),
    decideReview: contract(subjects.screening.decideReview, decideReviewRequestSchema, decideReviewResponseSchema),
    reviewCase: contract(subjects.screening.reviewCase, reviewCaseRequestSchema, reviewCaseResponseSchema),
    confirmReview: contract(subjects.screening.confirmReview, confirmReviewRequestSchema, reviewActionResponseSchema),
    returnReview: contract(subjects.screening.returnReview, returnReviewRequestSchema, reviewActionResponseSchema),
    reviewSettings: contract(subjects.screening.reviewSettings, reviewSettingsRequestSchema, reviewSettingsSchema),
    updateReviewSettings: contract(
      subjects.screening.updateReviewSettings,
      updateReviewSettingsRequestSchema,
      reviewSettingsSchema,
    ),
    remembered: contract(subjects.screening.remembered, rememberedRequestSchema, rememberedResponseSchema),
    revokeRemembered: contract(
      subjects.screening.revokeRemembered,
      revokeRememberedRequestSchema,
      revokeRememberedResponseSchema,
    ),
  },
  monitoring: {
    clientLists: {
      uploadPart: contract(
        subjects.monitoring.clientLists.uploadPart,
        clientListUploadPartRequestSchema,
        clientListUploadPartReplySchema,
      ),
      upload: contract(subjects.monitoring.clientLists.upload, clientListCompleteRequestSchema, clientListSchema),
      list: contract(subjects.monitoring.clientLists.list, clientListsRequestSchema, clientListsReplySchema),
      download: contract(
        subjects.monitoring.clientLists.download,
        clientListDownloadRequestSchema,
        clientListDownloadReplySchema,
      ),
      entries: contract(
        subjects.monitoring.clientLists.entries,
        clientListEntriesRequestSchema,
        clientListEntriesReplySchema,
      ),
      delete: contract(
        subjects.monitoring.clientLists.delete,
        clientListDeleteRequestSchema,
        clientListDeleteReplySchema,
      ),
    },
    entities: {
      create: contract(subjects.monitoring.entities.create, createMonitoredEntityRequestSchema, monitoredEntitySchema),
      list: contract(
        subjects.monitoring.entities.list,
        listMonitoredEntitiesRequestSchema,
        monitoredEntitiesReplySchema,
      ),
      update: contract(subjects.monitoring.entities.update, updateMonitoredEntityRequestSchema, monitoredEntitySchema),
      delete: contract(
        subjects.monitoring.entities.delete,
        monitoredEntityRefRequestSchema,
        deleteMonitoredEntityReplySchema,
      ),
      check: contract(
        subjects.monitoring.entities.check,
        monitoredEntityRefRequestSchema,
        checkMonitoredEntityReplySchema,
      ),
      bulkAdd: contract(subjects.monitoring.entities.bulkAdd, bulkAddRequestSchema, bulkAddReplySchema),
      bulkRemove: contract(subjects.monitoring.entities.bulkRemove, bulkRemoveRequestSchema, bulkRemoveReplySchema),
    },
    alerts: {
      list: contract(subjects.monitoring.alerts.list, listAlertsRequestSchema, alertsReplySchema),
      acknowledge: contract(subjects.monitoring.alerts.acknowledge, alertRefRequestSchema, monitoringAlertSchema),
    },
    stats: contract(subjects.monitoring.stats, callerOnlyRequestSchema, monitoringStatsReplySchema),
    settings: {
      get: contract(subjects.monitoring.settings.get, callerOnlyRequestSchema, monitoringSettingsReplySchema),
      update: contract(
        subjects.monitoring.settings.update,
        updateMonitoringSettingsRequestSchema,
        monitoringSettingsReplySchema,
      ),
    },
    serviceStatus: contract(
      subjects.monitoring.serviceStatus,
      callerOnlyRequestSchema,
      monitoringServiceStatusReplySchema,
    ),
    webhooks: {
      create: contract(subjects.monitoring.webhooks.create, createWebhookRequestSchema, createWebhookReplySchema),
      list: contract(subjects.monitoring.webhooks.list, callerOnlyRequestSchema, webhooksReplySchema),
      delete: contract(subjects.monitoring.webhooks.delete, deleteWebhookRequestSchema, deleteWebhookReplySchema),
      deliveries: contract(
        subjects.monitoring.webhooks.deliveries,
        webhookDeliveriesRequestSchema,
        webhookDeliveriesReplySchema,
      ),
      test: contract(subjects.monitoring.webhooks.test, webhookRefRequestSchema, testWebhookReplySchema),
      rotateSecret: contract(
        subjects.monitoring.webhooks.rotateSecret,
        rotateWebhookSecretRequestSchema,
        createWebhookReplySchema,
      ),
    },
  },
  auth: {
    signup: contract(subjects.auth.signup, signupRequestSchema, signupReplySchema),
    token: contract(subjects.auth.token, tokenRequestSchema, sessionSchema),
    logout: contract(subjects.auth.logout, logoutRequestSchema, messageReplySchema),
    recover: contract(subjects.auth.recover, recoverRequestSchema, messageReplySchema),
    resend: contract(subjects.auth.resend, resendRequestSchema, messageReplySchema),
    verify: contract(subjects.auth.verify, verifyRequestSchema, z.union([sessionSchema, messageReplySchema])),
    getUser: contract(subjects.auth.getUser, getUserRequestSchema, userSchema),
    updateUser: contract(subjects.auth.updateUser, updateUserRequestSchema, userSchema),
    listSessions: contract(subjects.auth.listSessions, listSessionsRequestSchema, listSessionsReplySchema),
    revokeSession: contract(subjects.auth.revokeSession, revokeSessionRequestSchema, messageReplySchema),
    unlinkIdentity: contract(subjects.auth.unlinkIdentity, unlinkIdentityRequestSchema, userSchema),
    enrollFactor: contract(subjects.auth.enrollFactor, enrollFactorRequestSchema, enrollFactorReplySchema),
    challengeFactor: contract(subjects.auth.challengeFactor, challengeFactorRequestSchema, challengeReplySchema),
    verifyFactor: contract(subjects.auth.verifyFactor, verifyFactorRequestSchema, verifyFactorReplySchema),
    unenrollFactor: contract(subjects.auth.unenrollFactor, unenrollFactorRequestSchema, userSchema),
    oidcStart: contract(subjects.auth.oidcStart, oidcStartRequestSchema, oidcStartReplySchema),
    oidcCallback: contract(subjects.auth.oidcCallback, oidcCallbackRequestSchema, sessionSchema),
    createInvitation: contract(subjects.auth.createInvitation, createInvitationRequestSchema, invitationReplySchema),
    jwks: contract(subjects.auth.jwks, emptyRequestSchema, jwksReplySchema),
    mailbox: contract(subjects.auth.mailbox, mailboxListRequestSchema, mailboxListReplySchema),
    activeUsers: contract(subjects.auth.activeUsers, activeUsersRequestSchema, activeUsersReplySchema),
  },
  clients: {
    list: contract(subjects.clients.list, listClientsRequestSchema, listClientsReplySchema),
    create: contract(subjects.clients.create, createClientRequestSchema, clientWithKeySchema),
    delete: contract(subjects.clients.delete, clientIdRequestSchema, messageReplySchema),
    findByKey: contract(subjects.clients.findByKey, findByKeyRequestSchema, clientSchema),
    regenerateKey: contract(subjects.clients.regenerateKey, clientIdRequestSchema, clientWithKeySchema),
    revokeKey: contract(subjects.clients.revokeKey, clientIdRequestSchema, apiKeyStatusSchema),
    keyStatus: contract(subjects.clients.keyStatus, clientIdRequestSchema, apiKeyStatusSchema),
    updateThresholds: contract(subjects.clients.updateThresholds, updateThresholdsRequestSchema, clientSchema),
    resolveKey: contract(subjects.clients.resolveKey, resolveKeyRequestSchema, resolvedKeySchema),
    resolveClient: contract(subjects.clients.resolveClient, clientRequestSchema, resolvedKeySchema),
    provision: contract(subjects.clients.provision, provisionClientRequestSchema, provisionClientReplySchema),
    updateSubscription: contract(subjects.clients.updateSubscription, updateSubscriptionRequestSchema, clientSchema),
    get: contract(subjects.clients.get, clientRequestSchema, clientSchema),
    notificationSettings: contract(
      subjects.clients.notificationSettings,
      clientRequestSchema,
      notificationSettingsSchema,
    ),
    settings: {
      getProfile: contract(subjects.clients.settings.getProfile, settingsRequestSchema, clientSchema),
      updateProfile: contract(subjects.clients.settings.updateProfile, updateProfileRequestSchema, clientSchema),
      regenerateKey: contract(subjects.clients.settings.regenerateKey, settingsRequestSchema, clientWithKeySchema),
      getNotifications: contract(
        subjects.clients.settings.getNotifications,
        settingsRequestSchema,
        notificationSettingsSchema,
      ),
      updateNotifications: contract(
        subjects.clients.settings.updateNotifications,
        updateNotificationsRequestSchema,
        notificationSettingsSchema,
      ),
      accountSummary: contract(subjects.clients.settings.accountSummary, settingsRequestSchema, accountSummarySchema),
    },
    team: {
      listMembers: contract(subjects.clients.team.listMembers, listTeamRequestSchema, listMembersReplySchema),
      changeRole: contract(subjects.clients.team.changeRole, changeMemberRoleRequestSchema, teamMemberSchema),
      removeMember: contract(subjects.clients.team.removeMember, removeMemberRequestSchema, messageReplySchema),
      listInvitations: contract(
        subjects.clients.team.listInvitations,
        listTeamRequestSchema,
        listInvitationsReplySchema,
      ),
      invite: contract(subjects.clients.team.invite, inviteMemberRequestSchema, teamInvitationSchema),
      revokeInvitation: contract(
        subjects.clients.team.revokeInvitation,
        revokeInvitationRequestSchema,
        messageReplySchema,
      ),
      lookUpInvitation: contract(
        subjects.clients.team.lookUpInvitation,
        lookUpInvitationRequestSchema,
        invitationPreviewSchema,
      ),
      acceptInvitation: contract(subjects.clients.team.acceptInvitation, acceptInvitationRequestSchema, sessionSchema),
      resolveMember: contract(subjects.clients.team.resolveMember, resolveMemberRequestSchema, resolvedMemberSchema),
      acceptInvitationSignup: contract(
        subjects.clients.team.acceptInvitationSignup,
        acceptInvitationSignupRequestSchema,
        sessionSchema,
      ),
    },
  },
  billing: {
    createCheckout: contract(subjects.billing.createCheckout, createCheckoutRequestSchema, checkoutSessionReplySchema),
    sandboxSession: contract(
      subjects.billing.sandboxSession,
      sandboxSessionRequestSchema,
      sandboxCheckoutSessionSchema,
    ),
    sandboxComplete: contract(
      subjects.billing.sandboxComplete,
      sandboxCompleteRequestSchema,
      sandboxCompleteResponseSchema,
    ),
    webhook: contract(subjects.billing.webhook, webhookRequestSchema, webhookReplySchema),
    portalSession: contract(subjects.billing.portalSession, clientRequestSchema, portalSessionResponseSchema),
    clientByEmail: contract(subjects.billing.clientByEmail, clientByEmailRequestSchema, clientByEmailResponseSchema),
    subscription: contract(subjects.billing.subscription, subscriptionCheckRequestSchema, subscriptionCheckReplySchema),
    upgradeOptions: contract(subjects.billing.upgradeOptions, clientRequestSchema, upgradeOptionsResponseSchema),
    upgradePreview: contract(subjects.billing.upgradePreview, upgradeRequestSchema, upgradePreviewSchema),
    upgrade: contract(subjects.billing.upgrade, upgradeRequestSchema, upgradeResultSchema),
    quotaMonitoring: contract(subjects.billing.quotaMonitoring, emptyRequestSchema, quotaMonitoringResponseSchema),
    checkWarnings: contract(subjects.billing.checkWarnings, emptyRequestSchema, quotaCheckResponseSchema),
    checkPayments: contract(subjects.billing.checkPayments, emptyRequestSchema, quotaCheckResponseSchema),
  },
  audit: {
    securityLogs: contract(subjects.audit.securityLogs, securityLogsRequestSchema, securityLogsResponseSchema),
    evidence: contract(subjects.audit.evidence, evidencePageRequestSchema, evidencePageResponseSchema),
    securityAlertCount: contract(
      subjects.audit.securityAlertCount,
      securityAlertCountRequestSchema,
      securityAlertCountReplySchema,
    ),
  },
} as const;

/** Every event, with the schema of its payload. */
export const events = {
  lists: {
    updated: event(subjects.lists.updated, listsUpdatedEventSchema),
    refreshFailed: event(subjects.lists.refreshFailed, listsRefreshFailedEventSchema),
  },
  screening: {
    screened: event(subjects.screening.screened, screenedEventSchema),
    reviewDecided: event(subjects.screening.reviewDecided, reviewDecidedEventSchema),
    memoryChanged: event(subjects.screening.memoryChanged, memoryChangedEventSchema),
    reviewSettingsChanged: event(subjects.screening.reviewSettingsChanged, reviewSettingsChangedEventSchema),
  },
  /** JetStream BULK_JOB_EVENTS; the gateway's bulk worker announces a finished job (for bulk_job.completed webhooks). */
  bulkJobs: { completed: event(subjects.gateway.bulkJobCompleted, bulkJobCompletedEventSchema) },
  auth: {
    failedAuth: event(subjects.auth.failedAuth, failedAuthEventSchema),
    clientChanged: event(subjects.auth.clientChanged, clientChangedEventSchema),
    sessionRevoked: event(subjects.auth.sessionRevoked, sessionRevokedEventSchema),
    memberChanged: event(subjects.auth.memberChanged, memberChangedEventSchema),
  },
  /** JetStream MONITORING_EVENTS: a client's monitoring settings and webhook changes, for its audit chain. */
  monitoring: { clientChanged: event(subjects.monitoring.clientChanged, monitoringChangedEventSchema) },
  clients: { keyRevoked: event(subjects.clients.keyRevoked, keyRevokedEventSchema) },
  billing: {
    subscriptionActivated: event(subjects.billing.subscriptionActivated, subscriptionActivatedEventSchema),
    tierChanged: event(subjects.billing.tierChanged, tierChangedEventSchema),
    paymentFailed: event(subjects.billing.paymentFailed, subscriptionStatusEventSchema),
    subscriptionCancelled: event(subjects.billing.subscriptionCancelled, subscriptionStatusEventSchema),
  },
  gateway: {
    securityEvent: event(subjects.gateway.securityEvent, securityEventSchema),
    quotaWarning: event(subjects.gateway.quotaWarning, quotaEventSchema),
    quotaExceeded: event(subjects.gateway.quotaExceeded, quotaEventSchema),
    bulkChunk: event(subjects.gateway.bulkChunk, bulkJobChunkSchema),
    adminAction: event(subjects.gateway.adminAction, adminActionEventSchema),
  },
} as const;
