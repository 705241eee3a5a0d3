import type { ServiceName } from './services.js';

// Every NATS subject Vigil uses, versioned so a contract change is a new subject
// rather than a silent break for replicas still running the old code.
// Request/reply subjects are handled by a queue group per service; event subjects
// on JetStream are listed in `streams` below.
export const subjects = {
  health: (service: ServiceName) => `health.v1.${service}` as const,
  /** Each service's reading of its own request metrics over a window, for the admin overview. */
  metricsSummary: (service: ServiceName) => `metrics.v1.summary.${service}` as const,
  screening: {
    screen: 'screening.v1.screen',
    bulkScreen: 'screening.v1.bulk-screen',
    /** One payment message (ISO 20022 or MT103): every party, agent, country and free text screened. */
    screenPayment: 'screening.v1.screen-payment',
    /** Monitoring's re-screens (only monitoring publishes it; logged as run by monitoring). */
    rescreen: 'screening.v1.rescreen',
    entity: 'screening.v1.entity',
    lists: 'screening.v1.lists',
    datasets: 'screening.v1.datasets',
    search: 'screening.v1.search',
    screened: 'screening.v1.screened',
    /** Admin: refresh some or all list sources now. */
    refresh: 'screening.v1.refresh',
    /** Admin: every source's version, freshness and last failure; and one source's version history. */
    adminLists: 'screening.v1.admin.lists',
    listVersions: 'screening.v1.admin.list-versions',
    /** Admin overview: every screening logged, all clients. */
    totalSearches: 'screening.v1.admin.total-searches',
    /** The dashboard's read-back of a client's screenings, and the review decision. */
    logs: 'screening.v1.logs.list',
    /** The dashboard's charts: a client's screenings per UTC day. */
    dailyUsage: 'screening.v1.logs.daily',
    /** The gateway settling its quota leases: screens logged under each. */
    quotaLeaseAnswers: 'screening.v1.logs.quota-lease-answers',
    alerts: 'screening.v1.alerts.list',
    reviews: 'screening.v1.reviews.list',
    decideReview: 'screening.v1.reviews.decide',
    /** Event (JetStream SCREENINGS): a review was decided, proposed, confirmed or returned, for the audit trail. */
    reviewDecided: 'screening.v1.review-decided',
    /** Issue #19: one case, a proposal's confirmation or return, the four-eyes setting, remembered false positives. */
    reviewCase: 'screening.v1.reviews.case',
    confirmReview: 'screening.v1.reviews.confirm',
    returnReview: 'screening.v1.reviews.return',
    reviewSettings: 'screening.v1.reviews.settings.get',
    updateReviewSettings: 'screening.v1.reviews.settings.update',
    remembered: 'screening.v1.remembered.list',
    revokeRemembered: 'screening.v1.remembered.revoke',
    /** Event (JetStream SCREENINGS): a remembered false positive was created or revoked. */
    memoryChanged: 'screening.v1.memory-changed',
    /** Event (JetStream SCREENINGS): a supervisor or owner set the client's four-eyes setting, for the audit trail. */
    reviewSettingsChanged: 'screening.v1.review-settings-changed',
  },
  monitoring: {
    /** A client's own customer lists (CSV), which monitoring re-screens. */
    clientLists: {
      uploadPart: 'monitoring.v1.client-lists.upload-part',
      upload: 'monitoring.v1.client-lists.upload',
      list: 'monitoring.v1.client-lists.list',
      download: 'monitoring.v1.client-lists.download',
      entries: 'monitoring.v1.client-lists.entries',
      delete: 'monitoring.v1.client-lists.delete',
    },
    entities: {
      create: 'monitoring.v1.entities.create',
      list: 'monitoring.v1.entities.list',
      update: 'monitoring.v1.entities.update',
      delete: 'monitoring.v1.entities.delete',
      check: 'monitoring.v1.entities.check',
      bulkAdd: 'monitoring.v1.entities.bulk-add',
      bulkRemove: 'monitoring.v1.entities.bulk-remove',
    },
    alerts: {
      list: 'monitoring.v1.alerts.list',
      acknowledge: 'monitoring.v1.alerts.acknowledge',
    },
    stats: 'monitoring.v1.stats',
    settings: {
      get: 'monitoring.v1.settings.get',
      update: 'monitoring.v1.settings.update',
    },
    serviceStatus: 'monitoring.v1.service-status',
    webhooks: {
      create: 'monitoring.v1.webhooks.create',
      list: 'monitoring.v1.webhooks.list',
      delete: 'monitoring.v1.webhooks.delete',
      deliveries: 'monitoring.v1.webhooks.deliveries',
      test: 'monitoring.v1.webhooks.test',
      rotateSecret: 'monitoring.v1.webhooks.rotate-secret',
    },
    /** Event (JetStream MONITORING_EVENTS): a client changed its monitoring settings or webhooks, for its audit chain. */
    clientChanged: 'monitoring.v1.client-changed',
    /** Core NATS (not JetStream): a client's new alerts and review items, for the gateway's live push. */
    push: (clientId: string) => `monitoring.v1.push.${clientId}` as const,
    pushAll: 'monitoring.v1.push.*',
  },
  lists: {
    updated: 'lists.v1.updated',
    refreshFailed: 'lists.v1.refresh-failed',
  },
  auth: {
    signup: 'auth.v1.signup',
    token: 'auth.v1.token',
    logout: 'auth.v1.logout',
    recover: 'auth.v1.recover',
    resend: 'auth.v1.resend',
    verify: 'auth.v1.verify',
    getUser: 'auth.v1.user.get',
    updateUser: 'auth.v1.user.update',
    listSessions: 'auth.v1.sessions.list',
    revokeSession: 'auth.v1.sessions.revoke',
    unlinkIdentity: 'auth.v1.identities.unlink',
    enrollFactor: 'auth.v1.factors.enroll',
    challengeFactor: 'auth.v1.factors.challenge',
    verifyFactor: 'auth.v1.factors.verify',
    unenrollFactor: 'auth.v1.factors.unenroll',
    oidcStart: 'auth.v1.oidc.start',
    oidcCallback: 'auth.v1.oidc.callback',
    createInvitation: 'auth.v1.invitations.create',
    /** Public keys, issuer, audience and algorithm for verifying access tokens locally. */
    jwks: 'auth.v1.jwks',
    /** Development mailbox (MAIL_TRANSPORT=mailbox only). */
    mailbox: 'auth.v1.mailbox.list',
    /** Admin overview: users with a live session. */
    activeUsers: 'auth.v1.admin.active-users',
    /** Event (JetStream AUTH_EVENTS): a failed sign-in, stored in the audit trail's security log. */
    failedAuth: 'auth.v1.failed-auth',
    /** Event (JetStream AUTH_EVENTS): a client's member changed its key, team or notifications, for its audit chain. */
    clientChanged: 'auth.v1.client-changed',
    /** Event: a session ended early; deny its `sid` until the token expires. */
    sessionRevoked: 'auth.v1.session-revoked',
    /** Event: a user's role in their client changed, or they left it. */
    memberChanged: 'auth.v1.member-changed',
  },
  clients: {
    list: 'clients.v1.list',
    create: 'clients.v1.create',
    delete: 'clients.v1.delete',
    findByKey: 'clients.v1.find-by-key',
    regenerateKey: 'clients.v1.regenerate-key',
    revokeKey: 'clients.v1.revoke-key',
    keyStatus: 'clients.v1.key-status',
    updateThresholds: 'clients.v1.update-thresholds',
    resolveKey: 'clients.v1.resolve-key',
    /** The gateway's dashboard routes: a signed-in user's client by id, as resolve-key answers (key fields null without an active key). */
    resolveClient: 'clients.v1.resolve-client',
    provision: 'clients.v1.provision',
    updateSubscription: 'clients.v1.update-subscription',
    /** Service-to-service (billing): one client by id, with its usage and quota. */
    get: 'clients.v1.get',
    /** Service-to-service (billing): which e-mails a client wants (quota warnings, payment failures…). */
    notificationSettings: 'clients.v1.notification-settings',
    /** Event: a key stopped working (regenerated, revoked, client deleted). */
    keyRevoked: 'clients.v1.key-revoked',
    settings: {
      getProfile: 'clients.v1.settings.profile.get',
      updateProfile: 'clients.v1.settings.profile.update',
      regenerateKey: 'clients.v1.settings.regenerate-key',
      getNotifications: 'clients.v1.settings.notifications.get',
      updateNotifications: 'clients.v1.settings.notifications.update',
      accountSummary: 'clients.v1.settings.account-summary',
    },
    /** A client's team: members, roles and the invitations its owners send. */
    team: {
      listMembers: 'clients.v1.team.members.list',
      changeRole: 'clients.v1.team.members.change-role',
      removeMember: 'clients.v1.team.members.remove',
      listInvitations: 'clients.v1.team.invitations.list',
      invite: 'clients.v1.team.invitations.create',
      revokeInvitation: 'clients.v1.team.invitations.revoke',
      /** The invitee's side, before they have a session in the client. */
      lookUpInvitation: 'clients.v1.team.invitations.look-up',
      acceptInvitation: 'clients.v1.team.invitations.accept',
      acceptInvitationSignup: 'clients.v1.team.invitations.accept-signup',
      /** The gateway: a signed-in user's client and live role (cached for at most KEY_CACHE_TTL_MS). */
      resolveMember: 'clients.v1.team.members.resolve',
    },
  },
  billing: {
    createCheckout: 'billing.v1.checkout.create',
    sandboxSession: 'billing.v1.sandbox.session',
    sandboxComplete: 'billing.v1.sandbox.complete',
    /** A Stripe webhook delivery: raw body + Stripe-Signature, verified by billing. */
    webhook: 'billing.v1.webhook',
    portalSession: 'billing.v1.portal-session',
    clientByEmail: 'billing.v1.client-by-email',
    subscription: 'billing.v1.subscription',
    upgradeOptions: 'billing.v1.upgrade.options',
    upgradePreview: 'billing.v1.upgrade.preview',
    upgrade: 'billing.v1.upgrade.apply',
    quotaMonitoring: 'billing.v1.quota-monitoring',
    checkWarnings: 'billing.v1.quota-monitoring.check-warnings',
    checkPayments: 'billing.v1.quota-monitoring.check-payments',
    /** Events: the gateway's key cache (≤ 5 s) makes limits follow; these tell everyone else. */
    subscriptionActivated: 'billing.v1.subscription-activated',
    tierChanged: 'billing.v1.tier-changed',
    paymentFailed: 'billing.v1.payment-failed',
    subscriptionCancelled: 'billing.v1.subscription-cancelled',
  },
  gateway: {
    /** Event (JetStream SECURITY): ADMIN_ACCESS, CLIENT_ACCESS, FAILED_AUTH, RATE_LIMIT_VIOLATION, SUSPICIOUS_ACTIVITY. */
    securityEvent: 'security.v1.event',
    /** Event (JetStream QUOTA): a client crossed 80% of its monthly quota. */
    quotaWarning: 'quota.v1.warning',
    /** Event (JetStream QUOTA): a client reached 100% of its monthly quota. */
    quotaExceeded: 'quota.v1.exceeded',
    /** Work queue (JetStream BULK_JOBS): one chunk of an asynchronous bulk-screen job. */
    bulkChunk: 'bulk.v1.chunk',
    /** Event (core NATS, at most once): an asynchronous bulk job has every result; for webhooks. */
    bulkJobCompleted: 'bulk.v1.job-completed',
    /** Event (JetStream ADMIN_ACTIONS): an administrator changed a client, its key, thresholds or tier, or refreshed lists. */
    adminAction: 'admin.v1.action',
  },
  audit: {
    /** The admin console's security log (admin only; the gateway checks the role). */
    securityLogs: 'audit.v1.security-logs.list',
    /** A client's own evidence: its chain of screenings, review decisions and admin actions. */
    evidence: 'audit.v1.evidence.page',
    /** Admin overview: security alerts recorded in the last hours. */
    securityAlertCount: 'audit.v1.admin.security-alert-count',
  },
} as const;

/**
 * Durable JetStream streams and the event subjects they keep. The publisher of a
 * stream's events creates or updates it at boot (idempotent), so consumers can
 * attach durable consumers whenever they start.
 */
export const streams = {
  lists: { name: 'LISTS', subjects: [subjects.lists.updated, subjects.lists.refreshFailed] },
  screenings: {
    name: 'SCREENINGS',
    subjects: [
      subjects.screening.screened,
      subjects.screening.reviewDecided,
      subjects.screening.memoryChanged,
      subjects.screening.reviewSettingsChanged,
    ],
  },
  security: { name: 'SECURITY', subjects: [subjects.gateway.securityEvent] },
  /** Auth's failed sign-ins (password, MFA, refresh-token reuse), for the audit trail's security log. */
  authEvents: { name: 'AUTH_EVENTS', subjects: [subjects.auth.failedAuth, subjects.auth.clientChanged] },
  /** Monitoring's changes a client made (settings, webhooks), for the client's audit chain. */
  monitoringEvents: { name: 'MONITORING_EVENTS', subjects: [subjects.monitoring.clientChanged] },
  adminActions: { name: 'ADMIN_ACTIONS', subjects: [subjects.gateway.adminAction] },
  quota: { name: 'QUOTA', subjects: [subjects.gateway.quotaWarning, subjects.gateway.quotaExceeded] },
  /** A work queue: each chunk is delivered to one worker and removed once acknowledged. */
  bulkJobs: { name: 'BULK_JOBS', subjects: [subjects.gateway.bulkChunk] },
  /**
   * A finished bulk job, kept so a consumer that was down when it was announced still hears it
   * (bulk_job.completed webhooks are at-least-once). Published with the job id as message id.
   */
  bulkJobEvents: { name: 'BULK_JOB_EVENTS', subjects: [subjects.gateway.bulkJobCompleted] },
} as const;

/** The request header that carries a request's correlation id through NATS. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** A request id a caller may choose: short and printable, since it ends up in logs and the security log. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
