import type { QuotaCheckResponse, QuotaMonitoringResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

export const quotasApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getQuotaMonitoring: build.query<QuotaMonitoringResponse, void>({
      query: () => '/api/client/quota-monitoring',
      providesTags: ['Quota'],
    }),
    checkQuotaWarnings: build.mutation<QuotaCheckResponse, void>({
      query: () => ({ url: '/api/client/quota-monitoring/check-warnings', method: 'POST' }),
      invalidatesTags: ['Quota'],
    }),
    checkPaymentFailures: build.mutation<QuotaCheckResponse, void>({
      query: () => ({ url: '/api/client/quota-monitoring/check-payments', method: 'POST' }),
      invalidatesTags: ['Quota'],
    }),
  }),
});

export const { useGetQuotaMonitoringQuery, useCheckQuotaWarningsMutation, useCheckPaymentFailuresMutation } = quotasApi;
