import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearStoredTraces, readRefreshToken } from '@vigil/ui';
import { gatewayApi } from '../api/gateway-api.js';
import { useAppDispatch, useAppStore } from '../app/hooks.js';
import { sessionEnded } from './auth-slice.js';
import { authApi } from './auth.api.js';

const RECHECK_AFTER_MS = 100;

/**
 * Spec §4 sign-out: sign out globally at the auth service (401/403/404 answers
 * mean the session is already gone and are ignored), clear the key, cached data
 * and every stored trace, wait 100 ms and check again that nothing came back.
 */
export function useSignOut() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  return useCallback(async () => {
    if (store.getState().auth.session) {
      await dispatch(authApi.endpoints.logout.initiate({ scope: 'global' })).unwrap().catch(() => undefined);
    }
    clearStoredTraces();
    dispatch(sessionEnded());
    dispatch(gatewayApi.util.resetApiState());
    await new Promise((resolve) => setTimeout(resolve, RECHECK_AFTER_MS));
    if (readRefreshToken() !== null || store.getState().auth.session !== null) {
      clearStoredTraces();
      dispatch(sessionEnded());
    }
    navigate('/login', { replace: true });
  }, [dispatch, navigate, store]);
}
