import type { Action } from '@reduxjs/toolkit';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearStoredTraces, readRefreshToken } from '../auth-storage.js';
import { sessionEnded } from './auth-slice.js';
import { useSessionDispatch, useSessionStore, type SessionDispatch } from './use-auth.js';

export type SignOutOptions = {
  /** Signs out at the auth service through the app's own logout endpoint; a failure there is ignored. */
  signOutAtServer: (dispatch: SessionDispatch) => Promise<unknown>;
  /** The app's gateway API's `util.resetApiState`, so no cached answer outlives the session. */
  resetApiState: () => Action;
  /** Where the signed-out user lands. */
  signInPath: string;
  /** Wait this long, then clear again if a session came back (an in-flight refresh storing its token). */
  recheckAfterMs?: number;
};

/**
 * Makes an app's sign-out hook: sign out at the auth service (an answer saying the
 * session is already gone is fine), then forget the session, every cached answer and
 * every stored trace, and go to the sign-in page.
 */
export function createSignOutHook({ signOutAtServer, resetApiState, signInPath, recheckAfterMs }: SignOutOptions) {
  return function useSignOut() {
    const dispatch = useSessionDispatch();
    const store = useSessionStore();
    const navigate = useNavigate();
    return useCallback(async () => {
      if (store.getState().auth.session) {
        await signOutAtServer(dispatch).catch(() => undefined);
      }
      clearStoredTraces();
      dispatch(sessionEnded());
      dispatch(resetApiState());
      if (recheckAfterMs !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, recheckAfterMs));
        if (readRefreshToken() !== null || store.getState().auth.session !== null) {
          clearStoredTraces();
          dispatch(sessionEnded());
        }
      }
      navigate(signInPath, { replace: true });
    }, [dispatch, navigate, store]);
  };
}
