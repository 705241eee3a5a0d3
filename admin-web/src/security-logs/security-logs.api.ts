import { SECURITY_LOGS_PAGE_DEFAULT, type SecurityLogsResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';
import type { LogFilters } from './log-filters.js';
import { filterParams } from './log-filters.js';

export const securityLogsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getSecurityLogs: build.query<SecurityLogsResponse, LogFilters>({
      query: (filters) => ({
        url: '/api/client/admin/logs',
        params: { ...filterParams(filters), limit: SECURITY_LOGS_PAGE_DEFAULT, offset: 0 },
      }),
      providesTags: ['SecurityLogs'],
    }),
  }),
});

export const { useGetSecurityLogsQuery } = securityLogsApi;
