import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { toApiError, type ApiError } from '../api-error.js';
import { sessionEnded, sessionStarted, type SessionState } from './auth-slice.js';
import type { RefreshSession } from './session-refresh.js';

/** Spec §9: requests give up after 30 s. */
const REQUEST_TIMEOUT_MS = 30_000;

export type GatewayQuery = BaseQueryFn<string | FetchArgs, unknown, ApiError, object, FetchBaseQueryMeta>;

/**
 * The base query of an app's one gateway API: adds the signed-in user's bearer token,
 * refreshes it once through the auth service when the gateway answers 401 (the access
 * token outlived its minutes), and turns every failure into an ApiError.
 */
export function createGatewayQuery(baseUrl: string, refreshSession: RefreshSession): GatewayQuery {
  const rawQuery = fetchBaseQuery({
    baseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    prepareHeaders: (headers, { getState }) => {
      const token = (getState() as SessionState).auth.session?.access_token;
      // The session is enough: the gateway takes the client from it, so no API key is kept in the page.
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return headers;
    },
  });

  return async (args, api, extraOptions) => {
    let result = await rawQuery(args, api, extraOptions);
    const hadSession = (api.getState() as SessionState).auth.session !== null;
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
}
