import { QueryView } from '@vigil/ui';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Progress,
  StatCard,
  toast,
} from '@vigil/ui';
import { Activity, ArrowUpCircle, Gauge, RefreshCw, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../shell/page-title.js';
import { DASHBOARD_REFRESH_MS, PageHeader } from './dashboard-shell.js';
import { countFormat, formatDateTime } from './parts.js';
import { useGetApiStatusQuery, useGetServiceHealthQuery } from './screening.api.js';
import { UsageCharts } from './usage-charts.js';


/** Spec §9: API Status colours at 90% (red) and 75% (orange); the usage banner at the same marks. */
export function usageTone(share: number): 'destructive' | 'warning' | 'brand' {
  if (share >= 0.9) return 'destructive';
  if (share >= 0.75) return 'warning';
  return 'brand';
}

/** /dashboard/screening/status: the client's month against its quota, refreshed every 30 s. */
export function StatusPage() {
  usePageTitle('API Status');
  const status = useGetApiStatusQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  const health = useGetServiceHealthQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });

  const refresh = async () => {
    void health.refetch();
    const result = await status.refetch();
    if (!result.isError) toast({ title: 'Status Refreshed', description: 'Usage and quota are up to date.' });
  };

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="API Status"
        description="Your plan, this period's usage and the service."
        actions={
          <Button variant="outline" onClick={() => void refresh()} disabled={status.isFetching}>
            <RefreshCw className={status.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
          </Button>
        }
      />
      <QueryView query={status} errorTitle="Failed to load API status">
        {(data) => {
          const share = data.quota === 0 ? 1 : data.usage / data.quota;
          return (
            <div className="flex flex-col gap-6">
              {share >= 0.75 && (
                <Alert tone={share >= 0.9 ? 'destructive' : 'warning'}>
                  <TriangleAlert aria-hidden />
                  <div className="flex flex-1 flex-col gap-1">
                    <AlertTitle>{share >= 0.9 ? 'High Usage Warning' : 'Usage Notice'}</AlertTitle>
                    <AlertDescription>
                      You have used {Math.round(share * 100)}% of this period's quota.
                      {share >= 0.9 && (
                        <>
                          {' '}
                          <Link to="/upgrade" className="font-medium underline">
                            Upgrade your plan
                          </Link>{' '}
                          to keep screening without interruption.
                        </>
                      )}
                    </AlertDescription>
                  </div>
                </Alert>
              )}
              <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
                <StatCard
                  label="Account status"
                  value={<span className="capitalize">{data.subscriptionStatus.replace('_', ' ')}</span>}
                  icon={<ShieldCheck aria-hidden />}
                  tone={data.subscriptionStatus === 'active' ? 'success' : 'destructive'}
                />
                <StatCard
                  label="Plan tier"
                  value={<span className="capitalize">{data.tier}</span>}
                  icon={<ArrowUpCircle aria-hidden />}
                  tone="brand"
                />
                <StatCard
                  label="Used this month"
                  value={countFormat.format(data.usage)}
                  icon={<Activity aria-hidden />}
                />
                <StatCard
                  label="Remaining"
                  value={countFormat.format(data.remaining)}
                  icon={<Gauge aria-hidden />}
                  tone={usageTone(share) === 'brand' ? 'success' : usageTone(share)}
                />
              </div>
              <Card>
                <CardHeader>
                  <CardTitle className="text-base [overflow-wrap:anywhere]">Usage for {data.client}</CardTitle>
                </CardHeader>
                <CardContent className="flex flex-col gap-2 text-sm">
                  <Progress value={Math.min(1, share)} tone={usageTone(share)} label="Usage this period" />
                  <p>
                    {countFormat.format(data.usage)} of {countFormat.format(data.quota)} calls (
                    {Math.round(share * 100)}%) · resets {formatDateTime(data.periodEnd)}
                  </p>
                </CardContent>
              </Card>
              <UsageCharts />
              <ServiceCard />
            </div>
          );
        }}
      </QueryView>
    </div>
  );
}

/**
 * The service as it is now: spec §9 shows fixed words (Online, under 200ms, 99.9%, v1.0.0,
 * Production), which would say "Online" through an outage. These come from the gateway's health
 * check each time the page refreshes; uptime and environment are left out, since nothing here
 * measures them.
 */
function ServiceCard() {
  const query = useGetServiceHealthQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Service</CardTitle>
      </CardHeader>
      <CardContent>
        <QueryView query={query} errorTitle="Service unreachable">
          {({ health, roundTripMs }) => {
            const down = Object.entries(health.services).filter(([, s]) => s.status === 'down');
            return (
              <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
                <div>
                  <dt className="text-muted-foreground">Status</dt>
                  <dd className="font-medium" data-service-status={health.status}>
                    {health.status === 'ok' ? 'Online' : 'Degraded'}
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Response time</dt>
                  <dd className="font-medium">{roundTripMs} ms</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Version</dt>
                  <dd className="font-medium">v{health.version}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Services down</dt>
                  <dd className="font-medium">{down.length === 0 ? 'None' : down.map(([name]) => name).join(', ')}</dd>
                </div>
              </dl>
            );
          }}
        </QueryView>
      </CardContent>
    </Card>
  );
}
