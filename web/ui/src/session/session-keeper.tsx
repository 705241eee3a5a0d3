import { useEffect } from 'react';
import { sessionEnded, sessionStarted } from './auth-slice.js';
import { nextRefreshDelay } from './refresh-schedule.js';
import type { RefreshSession } from './session-refresh.js';
import { useSessionDispatch, useSessionSelector } from './use-auth.js';

/**
 * Restores the session after a reload from the stored refresh token, then
 * keeps it fresh. Renders nothing.
 */
export function SessionKeeper({ refreshSession }: { refreshSession: RefreshSession }) {
  const dispatch = useSessionDispatch();
  const { status, session } = useSessionSelector((state) => state.auth);

  useEffect(() => {
    if (status !== 'loading') return;
    let cancelled = false;
    void refreshSession().then((refreshed) => {
      if (cancelled) return;
      dispatch(refreshed ? sessionStarted(refreshed) : sessionEnded());
    });
    return () => {
      cancelled = true;
    };
  }, [status, dispatch, refreshSession]);

  const expiresAt = session?.expires_at;
  useEffect(() => {
    if (expiresAt === undefined) return;
    const timer = window.setTimeout(() => {
      void refreshSession().then((refreshed) => dispatch(refreshed ? sessionStarted(refreshed) : sessionEnded()));
    }, nextRefreshDelay(expiresAt));
    return () => window.clearTimeout(timer);
  }, [expiresAt, dispatch, refreshSession]);

  return null;
}
