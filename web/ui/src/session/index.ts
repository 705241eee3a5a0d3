// @vigil/ui/session: the Redux session code both apps run (the auth slice, the gateway base
// query with its refresh on 401, the refresh schedule, sign-out). An entry of its own so the
// components entry stays free of Redux and the router.
export { authSlice, sessionEnded, sessionStarted } from './auth-slice.js';
export type { AuthState, AuthStatus, SessionState } from './auth-slice.js';
export { createGatewayQuery } from './gateway-query.js';
export type { GatewayQuery } from './gateway-query.js';
export { nextRefreshDelay, PERIODIC_REFRESH_MS, REFRESH_AHEAD_MS } from './refresh-schedule.js';
export { SessionKeeper } from './session-keeper.js';
export { createSessionRefresher } from './session-refresh.js';
export type { RefreshedSession, RefreshSession } from './session-refresh.js';
export { useAuth, useStartSession } from './use-auth.js';
export type { SessionDispatch } from './use-auth.js';
export { createSignOutHook } from './use-sign-out.js';
export type { SignOutOptions } from './use-sign-out.js';
export { accessTokenAal, secondFactorDue } from './second-factor.js';
