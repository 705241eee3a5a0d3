import type { ApiKeyStatus, Client, ClientWithKey, ListClientsReply, ThresholdConfig, Tier } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

const BASE = '/api/client/clients';
const byId = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** Spec §7 "Client administration": the admin's session is the credential; the gateway admits admins only. */
export const clientsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    listClients: build.query<ListClientsReply, void>({ query: () => BASE, providesTags: ['Clients'] }),
    createClient: build.mutation<ClientWithKey, { clientName: string; tier: Tier }>({
      query: (body) => ({ url: `${BASE}/create`, method: 'POST', body }),
      invalidatesTags: ['Clients', 'Overview'],
    }),
    findClientByKey: build.mutation<Client, string>({
      query: (key) => ({ url: `${BASE}/api-key/${encodeURIComponent(key.trim())}` }),
    }),
    regenerateKey: build.mutation<ClientWithKey, string>({
      query: (id) => ({ url: `${byId(id)}/regenerate-key`, method: 'POST' }),
      invalidatesTags: ['Clients'],
    }),
    revokeKey: build.mutation<ApiKeyStatus, string>({
      query: (id) => ({ url: `${byId(id)}/revoke-key`, method: 'POST' }),
      invalidatesTags: ['Clients'],
    }),
    keyStatus: build.query<ApiKeyStatus, string>({
      query: (id) => `${byId(id)}/api-key-status`,
      providesTags: ['Clients'],
    }),
    deleteClient: build.mutation<unknown, string>({
      query: (id) => ({ url: byId(id), method: 'DELETE' }),
      invalidatesTags: ['Clients', 'Overview'],
    }),
    updateThresholds: build.mutation<Client, { id: string; threshold_config: ThresholdConfig | null }>({
      query: ({ id, threshold_config }) => ({
        url: `${byId(id)}/thresholds`,
        method: 'PUT',
        body: { threshold_config },
      }),
      invalidatesTags: ['Clients'],
    }),
  }),
});

export const {
  useListClientsQuery,
  useCreateClientMutation,
  useFindClientByKeyMutation,
  useRegenerateKeyMutation,
  useRevokeKeyMutation,
  useKeyStatusQuery,
  useDeleteClientMutation,
  useUpdateThresholdsMutation,
} = clientsApi;
