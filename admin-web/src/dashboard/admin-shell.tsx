import { AppShell, AppSidebar, ConnectionTopBar, SidebarBrand, SidebarLabel, SidebarMenuButton } from '@vigil/ui';
import { ExternalLink } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { gatewayApi } from '../api/gateway-api.js';
import { useAppDispatch } from '../app/hooks.js';
import { useAuth } from '@vigil/ui/session';
import { useSignOut } from '../auth/use-sign-out.js';
import { useGetHealthQuery } from '../health/health.api.js';
import { ADMIN_SIDEBAR, DASHBOARD_REFRESH_MS } from './admin-nav.js';

/** The web app's screening dashboard, which the admin sidebar links to (spec §2). */
const WEB_APP_DASHBOARD =
  import.meta.env.VITE_WEB_URL !== undefined
    ? `${import.meta.env.VITE_WEB_URL}/dashboard`
    : `${window.location.protocol}//${window.location.hostname}:${Math.max(1, Number(window.location.port || 80) - 1)}/dashboard`;

/** The console's frame: web/ui's sidebar (16rem, 18rem on a phone, 3rem collapsed; Ctrl/Cmd+B) and the top bar. */
export function AdminShell({ children }: { children: ReactNode }) {
  return (
    <AppShell mainId="admin-main" sidebar={<AdminSidebar />} topBar={<TopBar />}>
      {children}
    </AppShell>
  );
}

/** Which section is on screen, so its sidebar entry is marked current while the page scrolls. */
function useCurrentSection(): string {
  const [current, setCurrent] = useState(ADMIN_SIDEBAR[0]!.anchor);
  useEffect(() => {
    const onScroll = () => {
      let found = ADMIN_SIDEBAR[0]!.anchor;
      for (const { anchor } of ADMIN_SIDEBAR) {
        const element = document.getElementById(anchor);
        if (element && element.getBoundingClientRect().top <= 120) found = anchor;
      }
      setCurrent(found);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return current;
}

function AdminSidebar() {
  const { user } = useAuth();
  const signOut = useSignOut();
  const current = useCurrentSection();
  return (
    <AppSidebar
      label="Admin navigation"
      brand={<SidebarBrand suffix="Admin" />}
      email={user?.email}
      onSignOut={() => void signOut()}
    >
      {ADMIN_SIDEBAR.map(({ label, anchor, icon: Icon }) => (
        <SidebarMenuButton key={anchor} label={label} active={current === anchor}>
          <a
            href={`#${anchor}`}
            onClick={(event) => {
              // Spec §2: the entries scroll to anchors on the same page.
              const target = document.getElementById(anchor);
              if (!target) return;
              event.preventDefault();
              target.scrollIntoView({ behavior: 'smooth', block: 'start' });
              window.history.replaceState(null, '', `#${anchor}`);
            }}
          >
            <Icon aria-hidden />
            <SidebarLabel>{label}</SidebarLabel>
          </a>
        </SidebarMenuButton>
      ))}
      <SidebarMenuButton label="Client dashboard">
        <a href={WEB_APP_DASHBOARD}>
          <ExternalLink aria-hidden />
          <SidebarLabel>Client dashboard</SidebarLabel>
        </a>
      </SidebarMenuButton>
    </AppSidebar>
  );
}

/** Spec §2 header: the API connected badge, the last-updated time and Refresh. */
function TopBar() {
  const dispatch = useAppDispatch();
  const health = useGetHealthQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  const [updatedAt, setUpdatedAt] = useState(() => new Date());
  const connected = health.data ? true : health.isError ? false : null;

  useEffect(() => {
    const timer = window.setInterval(() => {
      dispatch(gatewayApi.util.invalidateTags(['Overview', 'Quota', 'Lists']));
      setUpdatedAt(new Date());
    }, DASHBOARD_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [dispatch]);

  function refresh() {
    dispatch(gatewayApi.util.invalidateTags(['Overview', 'Clients', 'Quota', 'SecurityLogs', 'Lists']));
    void health.refetch();
    setUpdatedAt(new Date());
  }

  return (
    <ConnectionTopBar
      connected={connected}
      labels={{ connected: 'API Connected', disconnected: 'API Disconnected' }}
      updatedAt={updatedAt}
      onRefresh={refresh}
    />
  );
}
