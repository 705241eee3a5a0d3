import { OfflineBanner, Toaster } from '@vigil/ui';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SessionKeeper } from '@vigil/ui/session';
import { refreshSession } from '../api/gateway-api.js';
import { scrollKey } from './scroll-key.js';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';

/** The one shell: floating header, page, footer, the offline banner and the toast region. */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-[70] rounded-lg bg-surface px-4 py-2 font-medium text-primary shadow-float focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <SessionKeeper refreshSession={refreshSession} />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <OfflineBanner />
      <Toaster />
      <ScrollRestoration getKey={scrollKey} />
    </div>
  );
}
