import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';

export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
