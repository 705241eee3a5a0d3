import type { AdminListsResponse, ListVersionsResponse, RefreshResponse } from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/** A fetch of an official list can take minutes; the gateway waits up to ten. */
const REFRESH_TIMEOUT_MS = 10 * 60_000;

export const listsApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminLists: build.query<AdminListsResponse, void>({
      query: () => '/api/client/admin/lists',
      providesTags: ['Lists'],
    }),
    getListVersions: build.query<ListVersionsResponse, string>({
      query: (source) => `/api/client/admin/lists/${encodeURIComponent(source)}/versions`,
      providesTags: ['Lists'],
    }),
    refreshList: build.mutation<RefreshResponse, string>({
      query: (source) => ({
        url: '/api/client/admin/lists/refresh',
        method: 'POST',
        body: { sources: [source] },
        timeout: REFRESH_TIMEOUT_MS,
      }),
      invalidatesTags: ['Lists', 'Overview'],
    }),
  }),
});

export const { useGetAdminListsQuery, useGetListVersionsQuery, useRefreshListMutation } = listsApi;
