import type {
  CheckoutSessionRequest,
  CheckoutSessionResponse,
  ClientByEmailResponse,
  PlansResponse,
  PortalSessionResponse,
  SandboxCheckoutSession,
  SandboxCompleteRequest,
  SandboxCompleteResponse,
  SubscriptionCheckResponse,
  UpgradeOptionsResponse,
  UpgradePreview,
  UpgradeRequest,
  Tier,
} from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/** Plans, checkout, billing portal and upgrades: the billing service's routes at the gateway. */
export const billingApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getPlans: build.query<PlansResponse, void>({ query: () => '/api/v1/plans' }),
    createCheckoutSession: build.mutation<CheckoutSessionResponse, CheckoutSessionRequest>({
      query: (body) => ({ url: '/api/payment/create-checkout-session', method: 'POST', body }),
    }),
    /** The route guards' subscription check (bearer). */
    getSubscription: build.query<SubscriptionCheckResponse, void>({
      query: () => '/api/payment/subscription',
      providesTags: ['Account'],
    }),
    getClientByEmail: build.query<ClientByEmailResponse, string>({
      query: (email) => `/api/payment/client-by-email/${encodeURIComponent(email)}`,
    }),
    /** Authorised by the session: the gateway takes the client from it. */
    openPortalSession: build.mutation<PortalSessionResponse, void>({
      query: () => ({ url: '/api/payment/portal-session' }),
    }),
    getSandboxSession: build.query<SandboxCheckoutSession, string>({
      query: (id) => `/api/payment/sandbox/sessions/${encodeURIComponent(id)}`,
    }),
    completeSandboxSession: build.mutation<SandboxCompleteResponse, SandboxCompleteRequest & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/payment/sandbox/sessions/${encodeURIComponent(id)}/complete`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Account'],
    }),
    getUpgradeOptions: build.query<UpgradeOptionsResponse, void>({
      query: () => '/api/upgrade/options',
      providesTags: ['Upgrade'],
    }),
    getUpgradePreview: build.query<UpgradePreview, Tier>({
      query: (tier) => `/api/upgrade/preview?newTier=${encodeURIComponent(tier)}`,
    }),
    upgrade: build.mutation<unknown, UpgradeRequest>({
      query: (body) => ({ url: '/api/upgrade/upgrade', method: 'POST', body }),
      invalidatesTags: ['Upgrade', 'Account'],
    }),
  }),
});

export const {
  useGetPlansQuery,
  useGetSubscriptionQuery,
  useCreateCheckoutSessionMutation,
  useGetClientByEmailQuery,
  useOpenPortalSessionMutation,
  useGetSandboxSessionQuery,
  useCompleteSandboxSessionMutation,
  useGetUpgradeOptionsQuery,
  useLazyGetUpgradePreviewQuery,
  useUpgradeMutation,
} = billingApi;
