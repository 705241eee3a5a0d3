import type { Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Session } from '@vigil/proto';
import { useCallback } from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { writeRefreshToken } from '../auth-storage.js';
import { sessionStarted, type SessionState } from './auth-slice.js';

export type SessionDispatch = ThunkDispatch<SessionState, unknown, UnknownAction>;

/** Typed against the slice this package owns; an app's store has it under the same name. */
export const useSessionDispatch = useDispatch.withTypes<SessionDispatch>();
export const useSessionSelector = useSelector.withTypes<SessionState>();
export const useSessionStore = useStore.withTypes<Store<SessionState>>();

export function useAuth() {
  const { status, session, remember } = useSessionSelector((state) => state.auth);
  const user = session?.user ?? null;
  return { status, session, remember, user, isAdmin: user?.role === 'admin' };
}

/** Keeps a new session: the access token in memory, the refresh token where "Remember me" says. */
export function useStartSession() {
  const dispatch = useSessionDispatch();
  return useCallback(
    (session: Session, remember: boolean) => {
      writeRefreshToken(session.refresh_token, remember);
      dispatch(sessionStarted({ session, remember }));
    },
    [dispatch],
  );
}
