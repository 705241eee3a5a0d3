import type { HealthResponse } from '@vigil/proto';
import { isHealthResponse } from '@vigil/ui';
import { gatewayApi } from '../api/gateway-api.js';

export const healthApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<HealthResponse, void>({
      query: () => ({
        url: '/health',
        // 503 is the gateway's normal answer when a service is down and carries the
        // same report, so it is data to show, not a failed request.
        validateStatus: (response, body) =>
          (response.status === 200 || response.status === 503) && isHealthResponse(body),
      }),
    }),
  }),
});

export const { useGetHealthQuery } = healthApi;
