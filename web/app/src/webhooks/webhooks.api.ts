import type {
  CreateWebhookReply,
  TestWebhookReply,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/**
 * A client's webhook endpoints (issue #37): register, test, read deliveries, rotate the signing
 * secret, delete. Every change and every test moves the list or an endpoint's deliveries, so each
 * mutation invalidates the one `Webhooks` tag.
 */
export const webhooksApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<{ webhooks: WebhookEndpoint[] }, void>({
      query: () => '/api/monitoring/webhooks',
      providesTags: ['Webhooks'],
    }),
    registerWebhook: build.mutation<
      CreateWebhookReply,
      { url: string; event_types: WebhookEventType[]; description?: string }
    >({
      query: (body) => ({ url: '/api/monitoring/webhooks', method: 'POST', body }),
      invalidatesTags: ['Webhooks'],
    }),
    getWebhookDeliveries: build.query<{ deliveries: WebhookDelivery[] }, string>({
      query: (id) => ({ url: `/api/monitoring/webhooks/${encodeURIComponent(id)}/deliveries`, params: { limit: 20 } }),
      providesTags: ['Webhooks'],
    }),
    testWebhook: build.mutation<TestWebhookReply, string>({
      query: (id) => ({ url: `/api/monitoring/webhooks/${encodeURIComponent(id)}/test`, method: 'POST' }),
      invalidatesTags: ['Webhooks'],
    }),
    rotateWebhookSecret: build.mutation<CreateWebhookReply, string>({
      query: (id) => ({ url: `/api/monitoring/webhooks/${encodeURIComponent(id)}/rotate-secret`, method: 'POST' }),
      invalidatesTags: ['Webhooks'],
    }),
    deleteWebhook: build.mutation<{ id: string; deleted: true }, string>({
      query: (id) => ({ url: `/api/monitoring/webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Webhooks'],
    }),
  }),
});

export const {
  useGetWebhooksQuery,
  useRegisterWebhookMutation,
  useGetWebhookDeliveriesQuery,
  useTestWebhookMutation,
  useRotateWebhookSecretMutation,
  useDeleteWebhookMutation,
} = webhooksApi;
