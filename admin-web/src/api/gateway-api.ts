import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * The one RTK Query API for the gateway. It declares no endpoints: each feature
 * folder adds its own with `gatewayApi.injectEndpoints`, so features stay apart
 * while sharing one cache and one middleware.
 */
export const gatewayApi = createApi({
  reducerPath: 'gatewayApi',
  baseQuery: fetchBaseQuery({ baseUrl: import.meta.env.VITE_GATEWAY_URL ?? '' }),
  endpoints: () => ({}),
});
