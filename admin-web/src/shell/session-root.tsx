import { Toaster } from '@vigil/ui';
import { Outlet } from 'react-router-dom';
import { SessionKeeper } from '@vigil/ui/session';
import { refreshSession } from '../api/gateway-api.js';

/** Restores the session from the stored refresh token before any guard decides, and holds the toast region. */
export function SessionRoot() {
  return (
    <>
      <SessionKeeper refreshSession={refreshSession} />
      <Outlet />
      <Toaster />
    </>
  );
}
