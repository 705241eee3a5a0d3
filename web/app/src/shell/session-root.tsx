import { Toaster } from '@vigil/ui';
import { Outlet } from 'react-router-dom';
import { SessionKeeper } from '@vigil/ui/session';
import { refreshSession } from '../api/gateway-api.js';

/**
 * The root of a layout that sits under a route guard: the session must be restored (and the
 * toast region present) before the guard can decide, so they live above it.
 */
export function SessionRoot() {
  return (
    <>
      <SessionKeeper refreshSession={refreshSession} />
      <Outlet />
      <Toaster />
    </>
  );
}
