import { Toaster } from '@vigil/ui';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SessionKeeper } from '../auth/session-keeper.js';
import { OfflineBanner } from './online-status.js';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';

/** The one shell: floating header, page, footer, the offline banner and the toast region. */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SessionKeeper />
      <SiteHeader />
      <main className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <OfflineBanner />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
