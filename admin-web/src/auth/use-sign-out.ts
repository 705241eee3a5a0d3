import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearStoredTraces } from '@vigil/ui';
import { gatewayApi } from '../api/gateway-api.js';
import { useAppDispatch, useAppStore } from '../app/hooks.js';
import { sessionEnded } from './auth-slice.js';
import { authApi } from './auth.api.js';

/**
 * Signs out at the auth service (an answer saying the session is already gone is fine),
 * then forgets the session, every cached answer and every stored trace.
 */
export function useSignOut() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  return useCallback(async () => {
    if (store.getState().auth.session) {
      await dispatch(authApi.endpoints.logout.initiate({ scope: 'global' }))
        .unwrap()
        .catch(() => undefined);
    }
    clearStoredTraces();
    dispatch(sessionEnded());
    dispatch(gatewayApi.util.resetApiState());
    navigate('/login', { replace: true });
  }, [dispatch, navigate, store]);
}
