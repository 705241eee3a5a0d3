import { LogOut, RefreshCw, ShieldCheck, Wifi, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from './badge.js';
import { VigilLogo } from './brand.js';
import { Button } from './button.js';
import { OfflineBanner } from './online-status.js';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  SidebarMenu,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from './sidebar.js';

/**
 * The signed-in frame of both apps (the client dashboard and the admin console look like one
 * product): a skip link, the sidebar, the sticky top bar and the main region, with the offline
 * banner over all of it. `after` is for what an app adds inside the sidebar provider (scroll restoration).
 */
export function AppShell({
  mainId,
  sidebar,
  topBar,
  after,
  children,
}: {
  mainId: string;
  sidebar: ReactNode;
  topBar: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <SidebarProvider className="bg-background">
      <a
        href={`#${mainId}`}
        className="sr-only z-[70] rounded-lg bg-surface px-4 py-2 font-medium text-primary shadow-float focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {sidebar}
      <div className="flex min-w-0 flex-1 flex-col">
        {topBar}
        <main id={mainId} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
      <OfflineBanner />
      {after}
    </SidebarProvider>
  );
}

/** The logo, shrunk to its shield while the sidebar is collapsed to icons. */
export function SidebarBrand({ suffix }: { suffix?: string }) {
  const { open, isMobile } = useSidebar();
  if (open || isMobile) return <VigilLogo {...(suffix ? { suffix } : {})} />;
  return (
    <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
      <ShieldCheck className="size-4" aria-hidden />
    </span>
  );
}

/** The sidebar of a signed-in area: brand, the app's menu entries, then who is signed in and Sign Out. */
export function AppSidebar({
  label,
  brand,
  email,
  onSignOut,
  children,
}: {
  label: string;
  brand: ReactNode;
  email: string | undefined;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const { open, isMobile } = useSidebar();
  const collapsed = !open && !isMobile;
  return (
    <Sidebar label={label}>
      <SidebarHeader className={collapsed ? 'justify-center px-0' : undefined}>{brand}</SidebarHeader>
      <SidebarContent>
        <SidebarMenu>{children}</SidebarMenu>
      </SidebarContent>
      <SidebarFooter>
        {!collapsed && email && <p className="truncate px-2 pb-2 text-xs text-muted-foreground">{email}</p>}
        <button
          type="button"
          onClick={onSignOut}
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

/**
 * The top bar: the sidebar trigger, the gateway connection badge (null while the first health
 * check is out), the last-updated time and Refresh, then whatever else the app puts there.
 * The badge's words differ by app (the spec has "API Connected" in the console), hence `labels`.
 */
export function ConnectionTopBar({
  connected,
  labels = { connected: 'Connected', disconnected: 'Disconnected' },
  updatedAt,
  onRefresh,
  children,
}: {
  connected: boolean | null;
  labels?: { connected: string; disconnected: string };
  updatedAt: Date;
  onRefresh: () => void;
  children?: ReactNode;
}) {
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
          {connected === null ? 'Checking' : connected ? labels.connected : labels.disconnected}
        </Badge>
        <span className="hidden text-xs text-muted-foreground sm:inline" data-testid="last-updated">
          Last updated {timeFormat.format(updatedAt)}
        </span>
        <Button variant="ghost" size="sm" onClick={onRefresh} aria-label="Refresh">
          <RefreshCw aria-hidden />
          <span className="hidden sm:inline">Refresh</span>
        </Button>
        {children}
      </div>
    </header>
  );
}
