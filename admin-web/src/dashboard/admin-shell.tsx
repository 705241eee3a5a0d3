import {
  Badge,
  Button,
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarProvider,
  SidebarTrigger,
  VigilLogo,
  useSidebar,
} from '@vigil/ui';
import { ExternalLink, LogOut, RefreshCw, ShieldCheck, Wifi, WifiOff } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { gatewayApi } from '../api/gateway-api.js';
import { useAppDispatch } from '../app/hooks.js';
import { useAuth } from '../auth/use-auth.js';
import { useSignOut } from '../auth/use-sign-out.js';
import { useGetHealthQuery } from '../health/health.api.js';
import { OfflineBanner } from '../shell/online-status.js';
import { ADMIN_SIDEBAR, DASHBOARD_REFRESH_MS } from './admin-nav.js';

/** The web app's screening dashboard, which the admin sidebar links to (spec §2). */
const WEB_APP_DASHBOARD =
  import.meta.env.VITE_WEB_URL !== undefined
    ? `${import.meta.env.VITE_WEB_URL}/dashboard`
    : `${window.location.protocol}//${window.location.hostname}:${Math.max(1, Number(window.location.port || 80) - 1)}/dashboard`;

/** The console's frame: web/ui's sidebar (16rem, 18rem on a phone, 3rem collapsed; Ctrl/Cmd+B) and the top bar. */
export function AdminShell({ children }: { children: ReactNode }) {
  return (
    <SidebarProvider className="bg-background">
      <a
        href="#admin-main"
        className="sr-only z-[70] rounded-lg bg-surface px-4 py-2 font-medium text-primary shadow-float focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <AdminSidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar />
        <main id="admin-main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
      <OfflineBanner />
    </SidebarProvider>
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
  const { open, isMobile } = useSidebar();
  const collapsed = !open && !isMobile;
  const current = useCurrentSection();
  return (
    <Sidebar label="Admin navigation">
      <SidebarHeader className={collapsed ? 'justify-center px-0' : undefined}>
        {collapsed ? (
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <ShieldCheck className="size-4" aria-hidden />
          </span>
        ) : (
          <VigilLogo suffix="Admin" />
        )}
      </SidebarHeader>
      <SidebarContent>
        <SidebarMenu>
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
        </SidebarMenu>
      </SidebarContent>
      <SidebarFooter>
        {!collapsed && user && <p className="truncate px-2 pb-2 text-xs text-muted-foreground">{user.email}</p>}
        <button
          type="button"
          onClick={() => void signOut()}
          title={collapsed ? 'Sign Out' : undefined}
          className="flex h-9 w-full cursor-pointer items-center gap-3 rounded-lg px-2.5 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <LogOut className="size-4 shrink-0" aria-hidden />
          <span className={collapsed ? 'sr-only' : undefined}>Sign Out</span>
        </button>
      </SidebarFooter>
    </Sidebar>
  );
}

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

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
    <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-border bg-surface/95 px-3 backdrop-blur sm:px-4">
      <SidebarTrigger />
      <div className="ml-auto flex min-w-0 items-center gap-2">
        <Badge
          tone={connected === null ? 'neutral' : connected ? 'success' : 'destructive'}
          data-testid="api-connection"
          data-state={connected === null ? 'unknown' : connected ? 'connected' : 'disconnected'}
        >
          {connected === false ? <WifiOff aria-hidden /> : <Wifi aria-hidden />}
          {connected === null ? 'Checking' : connected ? 'API Connected' : 'API Disconnected'}
        </Badge>
        <span className="hidden text-xs text-muted-foreground sm:inline" data-testid="last-updated">
          Last updated {timeFormat.format(updatedAt)}
        </span>
        <Button variant="ghost" size="sm" onClick={refresh} aria-label="Refresh">
          <RefreshCw aria-hidden />
          <span className="hidden sm:inline">Refresh</span>
        </Button>
      </div>
    </header>
  );
}
