import { createSignOutHook } from '@vigil/ui/session';
import { gatewayApi } from '../api/gateway-api.js';
import { authApi } from './auth.api.js';

/**
 * Signs out at the auth service (an answer saying the session is already gone is fine),
 * then forgets the session, every cached answer and every stored trace.
 */
export const useSignOut = createSignOutHook({
  signOutAtServer: (dispatch) => dispatch(authApi.endpoints.logout.initiate({ scope: 'global' })).unwrap(),
  resetApiState: gatewayApi.util.resetApiState,
  signInPath: '/login',
});
