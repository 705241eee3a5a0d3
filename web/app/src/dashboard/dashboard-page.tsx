import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, isApiError, OnlineBadge, LoadError, Loading } from '@vigil/ui';
import { BookOpen, CreditCard, LayoutDashboard, LogOut, ScanSearch, ShieldCheck } from 'lucide-react';
import { Link, Navigate } from 'react-router-dom';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { SCREENING_HOME } from '../auth/post-sign-in.js';
import { useAuth } from '@vigil/ui/session';
import { useSignOut } from '../auth/use-sign-out.js';
import { usePageTitle } from '../shell/page-title.js';
import { planOf } from '../screening/plan.js';
import { UsageCharts } from '../screening/usage-charts.js';
import { ApiKeyCard } from './api-key-card.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** /dashboard: the account home. Admins go to their console; people without a client go to onboarding. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { user, isAdmin } = useAuth();
  const signOut = useSignOut();
  const summary = useGetAccountSummaryQuery(undefined, { skip: isAdmin });

  if (isAdmin) return <Navigate to="/dashboard/admin" replace />;
  if (summary.isError && isApiError(summary.error) && summary.error.status === 404 && summary.error.code !== 'ROUTE_NOT_FOUND') return <Navigate to="/onboarding" replace />;

  return (
    <div className="mx-auto max-w-6xl px-6 pt-28 pb-20 sm:pt-32">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-semibold text-primary">Account dashboard</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">Welcome{user?.full_name ? `, ${user.full_name}` : ''}</h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <OnlineBadge />
          <Button variant="outline" onClick={() => void signOut()}>
            <LogOut aria-hidden /> Sign Out
          </Button>
        </div>
      </div>

      <div className="mt-8 flex flex-wrap gap-3">
        <Button asChild>
          <Link to={SCREENING_HOME}>
            <ScanSearch aria-hidden /> Screening Dashboard
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/account">
            <CreditCard aria-hidden /> Account & Billing
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/docs">
            <BookOpen aria-hidden /> API Documentation
          </Link>
        </Button>
        {isAdmin && (
          <Button asChild variant="outline">
            <Link to="/dashboard/admin">
              <LayoutDashboard aria-hidden /> Admin Dashboard
            </Link>
          </Button>
        )}
      </div>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[1.5fr_1fr]">
        <ApiKeyCard apiKey={summary.data?.api_key} />
        <Card>
          <CardHeader>
            <CardTitle>Account information</CardTitle>
          </CardHeader>
          <CardContent>
            {summary.isLoading ? (
              <Loading />
            ) : summary.isError ? (
              <LoadError title="Failed to load account information" error={summary.error} onRetry={() => void summary.refetch()} />
            ) : (
              <dl className="grid grid-cols-1 gap-3 text-sm">
                <Row label="Email" value={user?.email ?? '—'} />
                <Row label="User ID" value={<span className="font-mono text-xs break-all">{user?.id}</span>} />
                <Row label="Created" value={user ? dateFormat.format(new Date(user.created_at)) : '—'} />
                {summary.data && (
                  <>
                    <Row label="Organisation" value={summary.data.client.client_name} />
                    <Row
                      label="Plan"
                      value={
                        <span className="inline-flex items-center gap-2 capitalize">
                          {summary.data.client.tier}
                          <Badge tone={summary.data.client.subscription_status === 'active' ? 'success' : 'warning'}>
                            {summary.data.client.subscription_status.replace('_', ' ')}
                          </Badge>
                        </span>
                      }
                    />
                  </>
                )}
              </dl>
            )}
          </CardContent>
        </Card>
      </div>

      {summary.data && planOf(summary.data.client.tier)?.dashboardAccess && (
        <section aria-labelledby="activity-heading" className="mt-8">
          <h2 id="activity-heading" className="mb-4 text-lg font-semibold">
            The last 30 days
          </h2>
          <UsageCharts />
        </section>
      )}

      <Card className="mt-6">
        <CardHeader className="flex-row flex-wrap items-center gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary">
            <ShieldCheck className="size-5" aria-hidden />
          </span>
          <div className="flex-1">
            <CardTitle className="text-base">API documentation access</CardTitle>
            <CardDescription>Endpoints, request fields and examples, generated from the live API.</CardDescription>
          </div>
          <Button asChild variant="outline">
            <Link to="/docs">Open docs</Link>
          </Button>
        </CardHeader>
      </Card>
    </div>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-4 border-b border-border pb-3 last:border-0 last:pb-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-words">{value}</dd>
    </div>
  );
}
