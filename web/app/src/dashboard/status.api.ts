import type { ApiStatusResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

export const statusApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The dashboard's month for a key: the gateway checks the key and that it
     * belongs to the signed-in user's client, so a 2xx proves the key works.
     */
    checkApiKey: build.mutation<ApiStatusResponse, string>({
      query: (apiKey) => ({ url: '/api/status', headers: { 'x-api-key': apiKey } }),
    }),
  }),
});

export const { useCheckApiKeyMutation } = statusApi;
