import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { toApiError, type ApiError } from '@vigil/ui';
import type { AuthState } from '../auth/auth-slice.js';
import { sessionEnded, sessionStarted } from '../auth/auth-slice.js';
import { refreshSession } from '../auth/session-refresh.js';

/** Spec §9: requests give up after 30 s. */
const REQUEST_TIMEOUT_MS = 30_000;

type StateWithAuth = { auth: AuthState };

const rawQuery = fetchBaseQuery({
  baseUrl: import.meta.env.VITE_GATEWAY_URL ?? '',
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as StateWithAuth).auth.session?.access_token;
    // The session is enough: the gateway takes the client from it, so no API key is kept in the page.
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

/**
 * Adds the signed-in user's bearer token, refreshes it once through the auth
 * service when the gateway answers 401, and turns every failure into an ApiError.
 */
const gatewayQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, object, FetchBaseQueryMeta> = async (args, api, extraOptions) => {
  let result = await rawQuery(args, api, extraOptions);
  const hadSession = (api.getState() as StateWithAuth).auth.session !== null;
  if (result.error?.status === 401 && hadSession) {
    const refreshed = await refreshSession();
    if (refreshed) {
      api.dispatch(sessionStarted(refreshed));
      result = await rawQuery(args, api, extraOptions);
    } else {
      api.dispatch(sessionEnded());
    }
  }
  if (result.error) {
    return { error: toApiError(result.error, result.meta?.response?.statusText), meta: result.meta };
  }
  return { data: result.data, meta: result.meta };
};

/**
 * The one RTK Query API for the gateway. It declares no endpoints: each feature
 * folder adds its own with `gatewayApi.injectEndpoints`, so features stay apart
 * while sharing one cache and one middleware.
 */
export const gatewayApi = createApi({
  reducerPath: 'gatewayApi',
  baseQuery: gatewayQuery,
  tagTypes: [
    'Account',
    'Upgrade',
    'Sessions',
    'User',
    'Logs',
    'Alerts',
    'Reviews',
    'ReviewCase',
    'Remembered',
    'Status',
    'ClientLists',
    'Monitoring',
    'Profile',
    'Notifications',
  ],
  endpoints: () => ({}),
});
