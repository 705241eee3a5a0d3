import type {
  ApiStatusResponse,
  BulkJobAccepted,
  BulkJobResponse,
  BulkScreenResponse,
  Client,
  ClientListsReply,
  ClientWithKey,
  EntityDetails,
  HealthResponse,
  ListsResponse,
  NotificationSettings,
  DecideReviewResponse,
  RememberedResponse,
  ReviewAction,
  ReviewActionResponse,
  ReviewCaseResponse,
  ReviewSettings,
  ReviewStatus,
  ReviewsResponse,
  RevokeRememberedResponse,
  SanctionAlertsResponse,
  ScreenResponse,
  ScreenEntity,
  ScreeningLogsRequest,
  ScreeningLogsResponse,
  UsageHistoryResponse,
} from '@vigil/proto';
import type { AlertsQuery } from './alerts-filter.js';
import { gatewayApi } from '../api/gateway-api.js';
import type { BulkEntityRow } from './classify.js';

/** What POST /api/screen answers: the screening itself plus the spec's top-match fields. */
export type DashboardScreenResponse = ScreenResponse & {
  id: string | null;
  name: string | null;
  score: number;
  source_dataset: string | null;
  message: string;
};

/** POST /api/sanctions/bulk-search: results at once (≤ 1,000 names) or a background job. */
export type BulkSearchOutcome = { kind: 'sync'; response: BulkScreenResponse } | { kind: 'job'; job: BulkJobAccepted };

export type DownloadedFile = { blob: Blob; fileName: string | null };

function fileNameOf(disposition: string | null): string | null {
  return disposition ? (/filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null) : null;
}

export type LogsQuery = Omit<ScreeningLogsRequest, 'clientId'>;

/**
 * The screening dashboard's calls. Every one is authorised by the signed-in session: the gateway
 * takes the client from the session, so the browser never holds an API key.
 */
export const screeningApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getApiStatus: build.query<ApiStatusResponse, void>({ query: () => '/api/status', providesTags: ['Status'] }),
    /**
     * The service as the gateway's GET /health finds it (503 when a service is down, still an
     * answer to show), with the round trip as this browser measured it.
     */
    getServiceHealth: build.query<{ health: HealthResponse; roundTripMs: number }, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const started = performance.now();
        const answer = await baseQuery({ url: '/health', validateStatus: (r) => r.status === 200 || r.status === 503 });
        if (answer.error) return { error: answer.error };
        return {
          data: { health: answer.data as HealthResponse, roundTripMs: Math.round(performance.now() - started) },
        };
      },
      providesTags: ['Status'],
    }),
    getUsageHistory: build.query<UsageHistoryResponse, void>({
      query: () => '/api/client/usage-history',
      providesTags: ['Status', 'Logs'],
    }),
    screenEntity: build.mutation<DashboardScreenResponse, ScreenEntity>({
      query: (body) => ({ url: '/api/screen', method: 'POST', body }),
      invalidatesTags: ['Logs', 'Alerts', 'Reviews', 'Status'],
    }),
    getEntity: build.query<EntityDetails, string>({
      query: (id) => `/api/sanctions/entity/${encodeURIComponent(id)}`,
    }),
    bulkSearch: build.mutation<BulkSearchOutcome, { entities: BulkEntityRow[] }>({
      query: (body) => ({ url: '/api/sanctions/bulk-search', method: 'POST', body }),
      transformResponse: (body: BulkScreenResponse | BulkJobAccepted, meta) =>
        meta?.response?.status === 202
          ? { kind: 'job', job: body as BulkJobAccepted }
          : { kind: 'sync', response: body as BulkScreenResponse },
      invalidatesTags: ['Logs', 'Alerts', 'Reviews', 'Status'],
    }),
    getBulkJob: build.query<BulkJobResponse, { id: string; offset?: number; limit?: number }>({
      query: ({ id, offset = 0, limit = 1000 }) => ({
        url: `/api/sanctions/bulk-jobs/${encodeURIComponent(id)}`,
        params: { offset, limit },
      }),
    }),
    getLogs: build.query<ScreeningLogsResponse, LogsQuery>({
      query: (params) => ({ url: '/api/client/logs', params }),
      providesTags: ['Logs'],
    }),
    getAlerts: build.query<SanctionAlertsResponse, AlertsQuery>({
      query: (params) => ({ url: '/api/client/sanction-alerts', params }),
      providesTags: ['Alerts'],
    }),
    getReviews: build.query<ReviewsResponse, ReviewStatus | undefined>({
      query: (status) => ({ url: '/api/sanctions/review', params: { ...(status ? { status } : {}), limit: 500 } }),
      providesTags: ['Reviews'],
    }),
    getReviewCase: build.query<ReviewCaseResponse, string>({
      query: (id) => `/api/sanctions/review/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'ReviewCase', id }],
    }),
    decideReview: build.mutation<
      DecideReviewResponse,
      { id: string; action: ReviewAction; reasonCode: string; note?: string }
    >({
      query: ({ id, action, reasonCode, note }) => ({
        url: `/api/sanctions/review/${encodeURIComponent(id)}`,
        method: 'POST',
        params: { action },
        body: { reasonCode, ...(note ? { note } : {}) },
      }),
      // Every open case may list this one among its previous decisions on the same entity.
      invalidatesTags: ['Reviews', 'ReviewCase', 'Remembered', 'Alerts'],
    }),
    confirmReview: build.mutation<ReviewActionResponse, { id: string }>({
      query: ({ id }) => ({ url: `/api/sanctions/review/${encodeURIComponent(id)}/confirm`, method: 'POST' }),
      invalidatesTags: ['Reviews', 'ReviewCase', 'Remembered', 'Alerts'],
    }),
    returnReview: build.mutation<ReviewActionResponse, { id: string; note?: string }>({
      query: ({ id, note }) => ({
        url: `/api/sanctions/review/${encodeURIComponent(id)}/return`,
        method: 'POST',
        body: note ? { note } : {},
      }),
      invalidatesTags: ['Reviews', 'ReviewCase'],
    }),
    getReviewSettings: build.query<ReviewSettings, void>({ query: () => '/api/sanctions/review-settings' }),
    getRemembered: build.query<RememberedResponse, void>({
      query: () => ({ url: '/api/sanctions/remembered', params: { limit: 500 } }),
      providesTags: ['Remembered'],
    }),
    revokeRemembered: build.mutation<RevokeRememberedResponse, string>({
      query: (id) => ({ url: `/api/sanctions/remembered/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Remembered', 'ReviewCase'],
    }),
    getLists: build.query<ListsResponse, void>({ query: () => '/api/lists' }),
    getClientLists: build.query<ClientListsReply, void>({
      query: () => '/api/client/lists',
      providesTags: ['ClientLists'],
    }),
    /** A file the server produces (reports, bulk results, list data): the bytes and the server's file name. */
    downloadFile: build.mutation<DownloadedFile, { url: string; params?: Record<string, string> }>({
      query: ({ url, params }) => ({
        url,
        params,
        responseHandler: async (response) => (response.ok ? response.blob() : response.json()),
      }),
      transformResponse: (blob: Blob, meta) => ({
        blob,
        fileName: fileNameOf(meta?.response?.headers.get('content-disposition') ?? null),
      }),
    }),
    getProfile: build.query<Client, void>({ query: () => '/api/settings/profile', providesTags: ['Profile'] }),
    updateProfile: build.mutation<Client, { client_name: string; contact_email: string }>({
      query: (body) => ({ url: '/api/settings/profile', method: 'PUT', body }),
      invalidatesTags: ['Profile', 'Account'],
    }),
    regenerateApiKey: build.mutation<ClientWithKey, void>({
      query: () => ({ url: '/api/settings/regenerate-api-key', method: 'POST' }),
      invalidatesTags: ['Profile', 'Account', 'Status'],
    }),
    getNotificationSettings: build.query<NotificationSettings, void>({
      query: () => '/api/settings/notification-settings',
      providesTags: ['Notifications'],
    }),
    updateNotificationSettings: build.mutation<NotificationSettings, NotificationSettings>({
      query: (body) => ({ url: '/api/settings/notification-settings', method: 'PUT', body }),
      invalidatesTags: ['Notifications', 'Account'],
    }),
  }),
});

export const {
  useGetApiStatusQuery,
  useGetServiceHealthQuery,
  useGetUsageHistoryQuery,
  useScreenEntityMutation,
  useGetEntityQuery,
  useBulkSearchMutation,
  useGetBulkJobQuery,
  useGetLogsQuery,
  useGetAlertsQuery,
  useGetReviewsQuery,
  useGetReviewCaseQuery,
  useDecideReviewMutation,
  useConfirmReviewMutation,
  useReturnReviewMutation,
  useGetReviewSettingsQuery,
  useGetRememberedQuery,
  useRevokeRememberedMutation,
  useGetListsQuery,
  useGetClientListsQuery,
  useDownloadFileMutation,
  useGetProfileQuery,
  useUpdateProfileMutation,
  useRegenerateApiKeyMutation,
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
} = screeningApi;
