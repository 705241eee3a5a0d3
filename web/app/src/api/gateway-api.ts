import { createApi } from '@reduxjs/toolkit/query/react';
import { createGatewayQuery, createSessionRefresher } from '@vigil/ui/session';

const GATEWAY_BASE = import.meta.env.VITE_GATEWAY_URL ?? '';

/** The app's one refresher: every caller in this tab shares its request (see createSessionRefresher). */
export const refreshSession = createSessionRefresher(GATEWAY_BASE);

/**
 * The one RTK Query API for the gateway. It declares no endpoints: each feature
 * folder adds its own with `gatewayApi.injectEndpoints`, so features stay apart
 * while sharing one cache and one middleware.
 */
export const gatewayApi = createApi({
  reducerPath: 'gatewayApi',
  baseQuery: createGatewayQuery(GATEWAY_BASE, refreshSession),
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
    'Webhooks',
  ],
  endpoints: () => ({}),
});
