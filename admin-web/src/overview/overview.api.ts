import type { AdminOverviewResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

export const overviewApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getOverview: build.query<AdminOverviewResponse, void>({
      query: () => '/api/client/admin/overview',
      providesTags: ['Overview'],
    }),
  }),
});

export const { useGetOverviewQuery } = overviewApi;
