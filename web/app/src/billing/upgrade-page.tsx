import { LoadError, Loading } from '@vigil/ui';
import type { Tier, UpgradeOption } from '@vigil/proto';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  toast,
  isApiError,
} from '@vigil/ui';
import { ArrowLeft, Check, Crown, Loader2, Mail, Zap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { UsageMeter } from '../account/usage-meter.js';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { useAuth } from '@vigil/ui/session';
import { SUPPORT_EMAIL } from '../public/company.js';
import { usePageTitle } from '../shell/page-title.js';
import { useGetUpgradeOptionsQuery, useLazyGetUpgradePreviewQuery, useUpgradeMutation } from './billing.api.js';
import { formatCount, formatUsd } from './pricing.js';
import { upgradeFailureMessage } from './upgrade-errors.js';

const LARGE_FEATURES = [
  '100,000 calls/month',
  '500 requests/minute',
  'All sanctions feeds',
  'Real-time updates',
  'WebSocket access',
  'Dashboard access',
  '24/7 support',
];

export function UpgradePage() {
  usePageTitle('Upgrade');
  const { isAdmin, user } = useAuth();
  const summary = useGetAccountSummaryQuery(undefined, { skip: isAdmin });

  useEffect(() => {
    if (isAdmin) toast({ title: 'No upgrade needed', description: `${user?.email ?? 'Admin accounts'}: admin accounts do not need a plan.` });
  }, [isAdmin, user?.email]);
  if (isAdmin) return <Navigate to="/dashboard/admin" replace />;

  return (
    <div className="mx-auto max-w-6xl px-6 pt-28 pb-20 sm:pt-32">
      <Link to="/account" className="inline-flex items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Back to account
      </Link>
      {summary.isLoading ? (
        <Loading label="Loading..." />
      ) : summary.isError || !summary.data ? (
        <div className="mt-8">
          <h1 className="mb-6 text-3xl font-semibold tracking-tight">Upgrade Your Plan</h1>
          <LoadError title="Failed to load client information" error={summary.error} onRetry={() => void summary.refetch()} />
        </div>
      ) : summary.data.client.tier === 'large' ? (
        <LargePlan usage={summary.data.client.usage_month} quota={summary.data.client.quota_month} />
      ) : (
        <UpgradeOptions client={summary.data.client} />
      )}
    </div>
  );
}

function LargePlan({ usage, quota }: { usage: number; quota: number }) {
  return (
    <>
      <div className="mt-4 flex items-center gap-3">
        <Crown className="size-8 text-warning" aria-hidden />
        <h1 className="text-3xl font-semibold tracking-tight">You're on the Large Plan!</h1>
      </div>
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Everything Vigil offers</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2.5 text-sm sm:grid-cols-2">
              {LARGE_FEATURES.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Check className="size-4 text-success" aria-hidden /> {feature}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Usage</CardTitle>
          </CardHeader>
          <CardContent>
            <UsageMeter usage={usage} quota={quota} />
          </CardContent>
        </Card>
        <Card className="lg:col-span-3">
          <CardHeader className="flex-row items-center justify-between gap-4">
            <div>
              <CardTitle>Need More?</CardTitle>
              <CardDescription>Custom volumes, dedicated infrastructure and enterprise contracts.</CardDescription>
            </div>
            <Button asChild variant="outline">
              <a href={`mailto:${SUPPORT_EMAIL}?subject=Vigil%20enterprise%20plan`}>
                <Mail aria-hidden /> Contact Support
              </a>
            </Button>
          </CardHeader>
        </Card>
      </div>
    </>
  );
}

type ClientInfo = { tier: Tier; subscription_status: string; usage_month: number; quota_month: number };

function UpgradeOptions({ client }: { client: ClientInfo }) {
  const options = useGetUpgradeOptionsQuery();
  const [selected, setSelected] = useState<Tier | null>(null);
  const [loadPreview, preview] = useLazyGetUpgradePreviewQuery();
  const [upgrade, upgrading] = useUpgradeMutation();
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (options.isError) toast({ title: 'Error', description: 'Failed to load upgrade information', variant: 'destructive' });
    else if (options.data && options.data.upgradeOptions.length === 0) {
      toast({
        title: 'Already on Highest Tier',
        description: "You're already on the highest tier available. Contact support for custom enterprise solutions.",
      });
    }
  }, [options.isError, options.data]);

  const choose = (tier: Tier) => {
    setSelected(tier);
    void loadPreview(tier)
      .unwrap()
      .catch(() => toast({ title: 'Error', description: 'Failed to get upgrade preview', variant: 'destructive' }));
  };

  const chosen = options.data?.upgradeOptions.find((option) => option.tier === selected) ?? null;
  const previewReady = selected !== null && preview.data !== undefined && preview.originalArgs === selected && !preview.isFetching;

  const submit = async () => {
    // Spec §5: only with a tier selected and its preview loaded; otherwise nothing happens.
    if (!selected || !previewReady || !chosen) return;
    setConfirming(false);
    try {
      await upgrade({ newTier: selected }).unwrap();
      toast({
        title: 'Upgrade Successful!',
        description: `You've been upgraded to ${chosen.tierName} tier. Your quota has been increased immediately.`,
      });
      setSelected(null);
    } catch (error) {
      toast({
        title: 'Upgrade Failed',
        description: upgradeFailureMessage(isApiError(error) ? error : { status: 0, message: 'Network error' }),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <h1 className="mt-4 text-3xl font-semibold tracking-tight">Upgrade Your Plan</h1>
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Current plan</CardTitle>
            <div className="flex gap-2">
              <Badge tone="brand" className="capitalize">{client.tier}</Badge>
              <Badge tone={client.subscription_status === 'active' ? 'success' : 'warning'}>{client.subscription_status.replace('_', ' ')}</Badge>
            </div>
          </CardHeader>
          <CardContent>
            <UsageMeter usage={client.usage_month} quota={client.quota_month} />
          </CardContent>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Available Upgrades</CardTitle>
            <CardDescription>Select a plan to see exactly what it costs for the rest of this billing period.</CardDescription>
          </CardHeader>
          <CardContent>
            {options.isLoading ? (
              <Loading label="Loading..." />
            ) : options.isError ? (
              <LoadError title="Failed to load upgrade information" error={options.error} onRetry={() => void options.refetch()} />
            ) : options.data?.upgradeOptions.length === 0 ? (
              <div className="flex flex-col items-start gap-3">
                <p className="text-lg font-semibold">No Upgrades Available</p>
                <Button asChild variant="outline">
                  <a href={`mailto:${SUPPORT_EMAIL}`}>
                    <Mail aria-hidden /> Contact Support
                  </a>
                </Button>
              </div>
            ) : (
              <div role="radiogroup" aria-label="Upgrade options" className="grid gap-4 sm:grid-cols-2">
                {options.data?.upgradeOptions.map((option) => (
                  <OptionCard key={option.tier} option={option} selected={option.tier === selected} onSelect={() => choose(option.tier)} />
                ))}
              </div>
            )}
          </CardContent>
        </Card>
      </div>

      {chosen && (
        <Card className="mt-6" aria-live="polite">
          <CardHeader>
            <CardTitle>Upgrade Summary</CardTitle>
          </CardHeader>
          <CardContent>
            {preview.isFetching ? (
              <Loading label="Calculating..." />
            ) : preview.isError ? (
              <p className="text-sm text-destructive-foreground">Failed to get upgrade preview</p>
            ) : preview.data ? (
              <dl className="grid gap-4 text-sm sm:grid-cols-3 lg:grid-cols-6">
                <Summary label="From" value={<span className="capitalize">{client.tier}</span>} />
                <Summary label="To" value={chosen.tierName} />
                <Summary label="Prorated cost" value={formatUsd(preview.data.proratedCost, 2)} />
                <Summary label="Quota increase" value={`+${formatCount(preview.data.quotaIncrease)}`} />
                <Summary label="New total quota" value={formatCount(preview.data.newTotalQuota)} />
                <Summary label="Days remaining" value={String(preview.data.daysRemaining)} />
              </dl>
            ) : null}
            <Button size="lg" className="mt-6" onClick={() => setConfirming(true)} disabled={!previewReady || upgrading.isLoading}>
              {upgrading.isLoading ? (
                <>
                  <Loader2 className="animate-spin" aria-hidden /> Processing Upgrade...
                </>
              ) : (
                <>
                  <Zap aria-hidden /> Upgrade Now
                </>
              )}
            </Button>
          </CardContent>
        </Card>
      )}
      {/* The charge is real and immediate: say the amount and ask first. */}
      <Dialog open={confirming && previewReady} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogTitle>Confirm upgrade to {chosen?.tierName}</DialogTitle>
          <DialogDescription>
            Your card on file will be charged{' '}
            <strong data-testid="upgrade-amount">{preview.data ? formatUsd(preview.data.proratedCost, 2) : ''}</strong> now
            for the {preview.data?.daysRemaining} days left in this billing period. Your quota rises to{' '}
            {preview.data ? formatCount(preview.data.newTotalQuota) : ''} calls immediately.
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} disabled={upgrading.isLoading}>
              Pay {preview.data ? formatUsd(preview.data.proratedCost, 2) : ''} and upgrade
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

function OptionCard({ option, selected, onSelect }: { option: UpgradeOption; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      onClick={onSelect}
      className={cn(
        'flex cursor-pointer flex-col gap-2 rounded-xl border p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-ring',
        selected ? 'border-primary bg-primary-soft/50 ring-1 ring-primary' : 'border-border hover:border-primary/40',
      )}
    >
      <span className="flex items-center justify-between">
        <span className="font-semibold">{option.tierName}</span>
        {selected && <Check className="size-4 text-primary" aria-label="Selected" />}
      </span>
      <span className="text-2xl font-semibold">
        {formatUsd(option.price)}
        <span className="text-sm font-normal text-muted-foreground">/month</span>
      </span>
      <span className="text-sm text-muted-foreground">
        {formatUsd(option.proratedCost, 2)} now · +{formatCount(option.quotaIncrease)} calls · {formatCount(option.newTotalQuota)} total
      </span>
      <span className="text-sm">
        {formatCount(option.features.monthlyQuota)} calls/month · {option.features.apiRateLimit} req/min
      </span>
      <span className="flex flex-wrap gap-1.5">
        {option.features.dashboardAccess && <Badge tone="success">Dashboard Access</Badge>}
        {option.features.webSocketAccess && <Badge tone="success">WebSocket Access</Badge>}
      </span>
    </button>
  );
}

function Summary({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold">{value}</dd>
    </div>
  );
}
