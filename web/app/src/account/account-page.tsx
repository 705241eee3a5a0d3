import { Alert, AlertDescription, AlertTitle, Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, toast, LoadError, Loading } from '@vigil/ui';
import { AlertTriangle, ArrowLeft, ArrowUpCircle, ExternalLink, Loader2, LogOut } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { useSignOut } from '../auth/use-sign-out.js';
import { useOpenPortalSessionMutation } from '../billing/billing.api.js';
import { formatCount } from '../billing/pricing.js';
import { usePageTitle } from '../shell/page-title.js';
import { SecuritySection } from './security-section.js';
import { usageView } from './usage.js';
import { UsageMeter } from './usage-meter.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function AccountPage() {
  usePageTitle('Account');
  const summary = useGetAccountSummaryQuery();
  const signOut = useSignOut();
  const [openPortal, portal] = useOpenPortalSessionMutation();

  const manageBilling = async () => {
    try {
      const { url } = await openPortal().unwrap();
      window.open(url, '_blank', 'noopener');
    } catch {
      toast({ title: 'Error', description: 'Failed to open billing portal. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <div className="mx-auto max-w-6xl px-6 pt-28 pb-20 sm:pt-32">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <Link to="/dashboard" className="inline-flex items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground">
            <ArrowLeft className="size-4" aria-hidden /> Back to dashboard
          </Link>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight">Account & billing</h1>
        </div>
        <Button variant="outline" onClick={() => void signOut()}>
          <LogOut aria-hidden /> Sign Out
        </Button>
      </div>

      {summary.isLoading ? (
        <Loading />
      ) : summary.isError ? (
        <div className="mt-8">
          <LoadError title="Failed to load account information" error={summary.error} onRetry={() => void summary.refetch()} />
        </div>
      ) : summary.data ? (
        <AccountBody summary={summary.data} onManageBilling={() => void manageBilling()} portalBusy={portal.isLoading} />
      ) : null}

      <h2 className="mt-12 mb-4 text-xl font-semibold">Security</h2>
      <SecuritySection />
    </div>
  );
}

function AccountBody({
  summary,
  onManageBilling,
  portalBusy,
}: {
  summary: NonNullable<ReturnType<typeof useGetAccountSummaryQuery>['data']>;
  onManageBilling: () => void;
  portalBusy: boolean;
}) {
  const { client } = summary;
  const usage = usageView(client.usage_month, client.quota_month);
  return (
    <div className="mt-8 flex flex-col gap-6">
      {client.subscription_status !== 'active' && (
        <Alert tone="destructive">
          <AlertTriangle aria-hidden />
          <div>
            <AlertTitle>There is an issue with your account</AlertTitle>
            <AlertDescription>
              {client.subscription_status === 'cancelled'
                ? 'Your subscription is cancelled. Please contact support to reactivate it.'
                : 'Your last payment did not go through. Please update your payment method in the billing portal.'}
            </AlertDescription>
          </div>
        </Alert>
      )}
      {usage.banner === 'high' ? (
        <Alert tone="destructive">
          <AlertTriangle aria-hidden />
          <div>
            <AlertTitle>High Usage Warning</AlertTitle>
            <AlertDescription>
              You have used {usage.percent}% of this month's quota. Upgrade your plan to avoid interruptions.{' '}
              <Link to="/upgrade" className="font-semibold underline">
                Upgrade now
              </Link>
            </AlertDescription>
          </div>
        </Alert>
      ) : usage.banner === 'notice' ? (
        <Alert tone="warning">
          <AlertTriangle aria-hidden />
          <div>
            <AlertTitle>Usage Notice</AlertTitle>
            <AlertDescription>You have used {usage.percent}% of this month's quota.</AlertDescription>
          </div>
        </Alert>
      ) : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Subscription</CardTitle>
            <CardDescription>{client.client_name}</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-muted-foreground">Plan</dt>
                <dd className="mt-1 text-lg font-semibold capitalize">{client.tier}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Status</dt>
                <dd className="mt-1">
                  <Badge tone={client.subscription_status === 'active' ? 'success' : 'destructive'}>{client.subscription_status.replace('_', ' ')}</Badge>
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Customer since</dt>
                <dd className="mt-1 font-semibold">{dateFormat.format(new Date(client.created_at))}</dd>
              </div>
            </dl>
            <div className="mt-6 flex flex-wrap gap-2">
              <Button onClick={onManageBilling} disabled={portalBusy}>
                {portalBusy ? <Loader2 className="animate-spin" aria-hidden /> : <ExternalLink aria-hidden />} Manage billing
              </Button>
              {client.tier !== 'large' && (
                <Button asChild variant="outline">
                  <Link to="/upgrade">
                    <ArrowUpCircle aria-hidden /> Upgrade plan
                  </Link>
                </Button>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Usage this month</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <UsageMeter usage={client.usage_month} quota={client.quota_month} />
            <p className="text-sm" data-testid="quota-state">
              {usage.quota === 'exceeded'
                ? 'Quota exceeded: API calls are blocked until the quota resets or you upgrade.'
                : usage.quota === 'warning'
                  ? `Warning: ${formatCount(Math.max(client.quota_month - client.usage_month, 0))} calls left this month.`
                  : `${formatCount(client.quota_month - client.usage_month)} calls left this month.`}
            </p>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
