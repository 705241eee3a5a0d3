import { createSignOutHook } from '@vigil/ui/session';
import { gatewayApi } from '../api/gateway-api.js';
import { authApi } from './auth.api.js';

/**
 * Spec §4 sign-out: sign out globally at the auth service (401/403/404 answers
 * mean the session is already gone and are ignored), clear the key, cached data
 * and every stored trace, wait 100 ms and check again that nothing came back.
 */
export const useSignOut = createSignOutHook({
  signOutAtServer: (dispatch) => dispatch(authApi.endpoints.logout.initiate({ scope: 'global' })).unwrap(),
  resetApiState: gatewayApi.util.resetApiState,
  signInPath: '/login',
  recheckAfterMs: 100,
});
