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

const REQUEST_TIMEOUT_MS = 30_000;

type StateWithAuth = { auth: AuthState };

export const GATEWAY_BASE = import.meta.env.VITE_GATEWAY_URL ?? '';

const rawQuery = fetchBaseQuery({
  baseUrl: GATEWAY_BASE,
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as StateWithAuth).auth.session?.access_token;
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

/**
 * The admin's bearer token on every call, one refresh through the auth service when the
 * gateway answers 401 (the access token outlived its minutes), and every failure as an ApiError.
 * The same rule as the web app's, so a reload or an idle tab keeps the admin signed in.
 */
const gatewayQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, object, FetchBaseQueryMeta> = async (
  args,
  api,
  extraOptions,
) => {
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
  tagTypes: ['Clients', 'Quota', 'SecurityLogs', 'Overview', 'Lists'],
  endpoints: () => ({}),
});
