import type { Session } from '@vigil/proto';
import { useCallback } from 'react';
import { writeRefreshToken } from '@vigil/ui';
import { useAppDispatch, useAppSelector } from '../app/hooks.js';
import { sessionStarted } from './auth-slice.js';

export function useAuth() {
  const { status, session } = useAppSelector((state) => state.auth);
  const user = session?.user ?? null;
  return { status, session, user, isAdmin: user?.role === 'admin' };
}

/** Keeps a new session: the access token in memory, the refresh token where "Remember me" says. */
export function useStartSession() {
  const dispatch = useAppDispatch();
  return useCallback(
    (session: Session, remember: boolean) => {
      writeRefreshToken(session.refresh_token, remember);
      dispatch(sessionStarted({ session, remember }));
    },
    [dispatch],
  );
}
