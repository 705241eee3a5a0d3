import { LoadError, Loading } from '@vigil/ui';
import { PLANS, type Plan } from '@vigil/proto';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  AppShell,
  AppSidebar,
  Button,
  ConnectionTopBar,
  SidebarBrand,
  SidebarLabel,
  SidebarMenuButton,
} from '@vigil/ui';
import {
  Activity,
  ArrowUpCircle,
  Bell,
  BookOpen,
  ClipboardCheck,
  Database,
  Download,
  ExternalLink,
  FileText,
  KeyRound,
  LayoutDashboard,
  List,
  ListChecks,
  Radar,
  ScanSearch,
  Settings,
  Users,
  Webhook,
} from 'lucide-react';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAppDispatch } from '../app/hooks.js';
import { gatewayApi } from '../api/gateway-api.js';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { useAuth } from '@vigil/ui/session';
import { useSignOut } from '../auth/use-sign-out.js';
import { formatCount } from '../billing/pricing.js';
import { useGetHealthQuery } from '../health/health.api.js';
import { scrollKey } from '../shell/scroll-key.js';
import { planOf } from './plan.js';

/** Spec §7: health check, status and the dashboard refresh every 30 seconds. */
export const DASHBOARD_REFRESH_MS = 30_000;

type Entry = { label: string; to: string; icon: ComponentType<{ 'aria-hidden'?: boolean }> };

/** Spec §2 client sidebar: fourteen entries, in this order. */
export const CLIENT_SIDEBAR: readonly Entry[] = [
  { label: 'Upgrade Plan', to: '/upgrade', icon: ArrowUpCircle },
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Entity Screening', to: '/dashboard/screening/api-screen', icon: ScanSearch },
  { label: 'Bulk Search', to: '/dashboard/screening/bulk-search', icon: ListChecks },
  { label: 'Status', to: '/dashboard/screening/status', icon: Activity },
  { label: 'Review Queue', to: '/dashboard/screening/review-queue', icon: ClipboardCheck },
  { label: 'Alerts', to: '/dashboard/screening/alerts', icon: Bell },
  { label: 'Screening Logs', to: '/dashboard/screening/logs', icon: FileText },
  { label: 'Lists', to: '/dashboard/screening/lists', icon: List },
  { label: 'Client Lists', to: '/dashboard/screening/client-lists', icon: Users },
  { label: 'Ongoing Monitoring', to: '/dashboard/screening/ongoing-monitoring', icon: Radar },
  { label: 'My Datasets', to: '/dashboard/screening/datasets', icon: Database },
  { label: 'Downloads & Reports', to: '/dashboard/screening/downloads', icon: Download },
  { label: 'Webhooks', to: '/dashboard/screening/webhooks', icon: Webhook },
  { label: 'Settings', to: '/dashboard/screening/settings', icon: Settings },
];

/** Pages a tier without dashboard access may still open: the account's own settings (key rotation). */
const OPEN_TO_EVERY_TIER = new Set(['/dashboard/screening/settings']);

/**
 * The screening dashboard's frame: the client sidebar, the top bar and, for the signed-in user's
 * client, the tier rule (§9) and the no-active-key notice. Every call is authorised by the session.
 */
export function DashboardShell() {
  return (
    <AppShell
      mainId="dashboard-main"
      sidebar={<ClientSidebar />}
      topBar={<TopBar />}
      after={<ScrollRestoration getKey={scrollKey} />}
    >
      <AccountGate />
    </AppShell>
  );
}

function ClientSidebar() {
  const location = useLocation();
  const { user } = useAuth();
  const signOut = useSignOut();
  return (
    <AppSidebar
      label="Dashboard navigation"
      brand={
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-ring"
          aria-label="Vigil home"
        >
          <SidebarBrand />
        </Link>
      }
      email={user?.email}
      onSignOut={() => void signOut()}
    >
      {CLIENT_SIDEBAR.map(({ label, to, icon: Icon }) => (
        <SidebarMenuButton key={to} label={label} active={location.pathname === to}>
          <NavLink to={to} end>
            <Icon aria-hidden />
            <SidebarLabel>{label}</SidebarLabel>
          </NavLink>
        </SidebarMenuButton>
      ))}
    </AppSidebar>
  );
}

/** Spec §2 top bar: API docs, connected badge, last updated with refresh. */
function TopBar() {
  const dispatch = useAppDispatch();
  const health = useGetHealthQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  const [updatedAt, setUpdatedAt] = useState(() => new Date());
  const connected = health.data ? health.data.status === 'ok' : health.isError ? false : null;

  useEffect(() => {
    const timer = window.setInterval(() => refresh(false), DASHBOARD_REFRESH_MS);
    return () => window.clearInterval(timer);
  });

  function refresh(now = true) {
    dispatch(gatewayApi.util.invalidateTags(['Status', 'Logs', 'Alerts', 'Reviews', 'ClientLists', 'Account']));
    if (now) void health.refetch();
    setUpdatedAt(new Date());
  }

  return (
    <ConnectionTopBar connected={connected} updatedAt={updatedAt} onRefresh={() => refresh()}>
      <Button variant="outline" size="sm" asChild>
        <a href="/docs" target="_blank" rel="noopener">
          <BookOpen aria-hidden />
          <span className="hidden sm:inline">API Docs</span>
          <ExternalLink aria-hidden className="hidden sm:inline" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </Button>
    </ConnectionTopBar>
  );
}

/** The tier rule and the no-key notice, read from the session's own account summary. */
function AccountGate() {
  const location = useLocation();
  const summary = useGetAccountSummaryQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  if (summary.isLoading) return <Loading label="Loading your account..." />;
  if (summary.isError || !summary.data) {
    return (
      <>
        <h1 className="sr-only">Screening dashboard</h1>
        <LoadError
          title="Failed to load account information"
          error={summary.error}
          onRetry={() => void summary.refetch()}
        />
      </>
    );
  }
  const { client, api_key } = summary.data;
  const plan = planOf(client.tier);
  if (plan && !plan.dashboardAccess && !OPEN_TO_EVERY_TIER.has(location.pathname))
    return <PlanWithoutDashboard plan={plan} />;
  return (
    <>
      {api_key.status !== 'active' && <NoActiveKeyNotice revoked={api_key.status === 'revoked'} />}
      <Outlet />
    </>
  );
}

/** Spec §2 "API key required", as the state of a client with no active key (the session still works). */
function NoActiveKeyNotice({ revoked }: { revoked: boolean }) {
  return (
    <Alert tone="warning" className="mb-6" data-testid="no-active-key">
      <KeyRound aria-hidden />
      <div className="flex flex-1 flex-col gap-1">
        <AlertTitle>API Key Required</AlertTitle>
        <AlertDescription>
          {revoked ? 'Your API key was revoked. ' : 'Your organisation has no active API key. '}
          The dashboard keeps working with your sign-in; integrations need a key.{' '}
          <Link to="/dashboard/screening/settings" className="font-medium underline">
            Generate one in Settings
          </Link>
          .
        </AlertDescription>
      </div>
    </Alert>
  );
}

/** Spec §9 tier rule: what the plan includes and the way up, instead of dashboard data. */
function PlanWithoutDashboard({ plan }: { plan: Plan }) {
  const upgrades = PLANS.filter(
    (candidate) => candidate.dashboardAccess && candidate.priceUsdPerMonth > plan.priceUsdPerMonth,
  );
  return (
    <section className="mx-auto max-w-3xl" data-testid="plan-without-dashboard">
      <PageHeader
        title="Screening dashboard"
        description={`Your ${plan.name} plan does not include the screening dashboard.`}
      />
      <div className="rounded-card border border-border bg-surface p-6 shadow-card">
        <h2 className="text-lg font-semibold">What your {plan.name} plan includes</h2>
        <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <Fact label="Monthly API calls" value={formatCount(plan.monthlyQuota)} />
          <Fact label="Rate limit" value={`${plan.rateLimitPerMinute} per minute`} />
          <Fact label="Response time" value={plan.responseTime} />
          <Fact label="Support" value={plan.support} />
          <Fact label="Lists" value={plan.feeds.join(', ')} />
          <Fact label="Dashboard access" value="Not included" />
        </dl>
        <p className="mt-6 text-sm text-muted-foreground">
          Your API key keeps working for integrations. The screening dashboard comes with{' '}
          {upgrades.map((p) => p.name).join(' and ') || 'a higher plan'}.
        </p>
        <div className="mt-4 flex flex-wrap gap-2">
          <Button asChild>
            <Link to="/upgrade">
              <ArrowUpCircle aria-hidden /> Upgrade Plan
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/dashboard/screening/settings">Settings</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-lg bg-muted px-3 py-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

/** Each dashboard page's own h1, description and actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2 sm:shrink-0">{actions}</div>}
    </div>
  );
}
