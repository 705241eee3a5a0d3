import type { AdminServiceFigures } from '@vigil/proto';
import { Badge, formatLatency, serviceRows, Spinner, StatCard, summarizeHealth, LoadError } from '@vigil/ui';
import { Activity, HeartPulse, Search, ShieldAlert, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { DASHBOARD_REFRESH_MS } from '../dashboard/admin-nav.js';
import { useGetHealthQuery } from '../health/health.api.js';
import { formatDateTime, Panel, Section } from '../shell/parts.js';
import { formatErrorRate, formatFigure, formatP95, formatPercent, formatRate } from './figures.js';
import { useGetOverviewQuery } from './overview.api.js';

function useOverview() {
  return useGetOverviewQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS, skipPollingIfUnfocused: true });
}

/** Spec §2 stat cards, every figure read from the services that own it. */
export function OverviewSection() {
  const overview = useOverview();
  const data = overview.data;
  return (
    <Section
      id="overview"
      title="Overview"
      description={data ? `As of ${formatDateTime(data.generatedAt)}` : 'Live figures from every service.'}
    >
      {overview.isLoading ? (
        <Spinner label="Loading the overview..." className="py-10" />
      ) : data === undefined ? (
        <LoadError title="Failed to load the overview" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4" data-testid="overview-cards">
          <StatCard
            label="Active Users"
            value={formatFigure(data.activeUsers)}
            hint="Signed in, session live"
            icon={<Users />}
            tone="brand"
          />
          <StatCard
            label="Security Alerts"
            value={formatFigure(data.securityAlerts24h)}
            hint="Failed auth, rate limits, suspicious (24 h)"
            icon={<ShieldAlert />}
            tone={data.securityAlerts24h ? 'warning' : 'neutral'}
          />
          <StatCard
            label="System Health"
            value={formatPercent(data.systemHealthPercent)}
            hint={`${data.services.filter((s) => s.up).length} of ${data.services.length} services up`}
            icon={<HeartPulse />}
            tone={data.systemHealthPercent === 100 ? 'success' : 'destructive'}
          />
          <StatCard
            label="Total Searches"
            value={formatFigure(data.totalSearches)}
            hint="Screenings logged, all clients"
            icon={<Search />}
          />
        </div>
      )}
    </Section>
  );
}

/** Spec §2 System Reports in three columns: traffic, latency and errors per service over the last hour. */
export function SystemReportsSection() {
  const overview = useOverview();
  const services = overview.data?.services;
  return (
    <Section
      id="system-reports"
      title="System Reports"
      description="Each service over the last hour, from its own metrics."
    >
      {overview.isLoading ? (
        <Spinner label="Loading system reports..." className="py-10" />
      ) : services === undefined ? (
        <LoadError
          title="Failed to load system reports"
          error={overview.error}
          onRetry={() => void overview.refetch()}
        />
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          <ReportColumn
            title="Requests per second"
            services={services}
            figure={(s) => formatRate(s.requestsPerSecond)}
          />
          <ReportColumn title="p95 latency" services={services} figure={(s) => formatP95(s.p95LatencyMs)} />
          <ReportColumn
            title="Error rate"
            services={services}
            figure={(s) => formatErrorRate(s.errorRate)}
            warn={(s) => s.errorRate >= 0.05}
          />
        </div>
      )}
    </Section>
  );
}

function ReportColumn({
  title,
  services,
  figure,
  warn,
}: {
  title: string;
  services: AdminServiceFigures[];
  figure: (service: AdminServiceFigures) => ReactNode;
  warn?: (service: AdminServiceFigures) => boolean;
}) {
  return (
    <Panel className="p-4">
      <h3 className="text-sm font-semibold">{title}</h3>
      <dl className="mt-3 flex flex-col gap-1.5 text-sm" aria-label={title}>
        {services.map((service) => (
          <div key={service.service} className="flex items-center justify-between gap-3" data-service={service.service}>
            <dt className="capitalize text-muted-foreground">{service.service}</dt>
            <dd
              className={`tabular-nums ${warn?.(service) ? 'font-semibold text-destructive-foreground' : 'font-medium'}`}
            >
              {service.up ? figure(service) : 'down'}
            </dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

/** Each service up or down: the gateway's health check, with the metrics' view beside it. */
export function SystemHealthSection() {
  const health = useGetHealthQuery(undefined, { pollingInterval: DASHBOARD_REFRESH_MS });
  const overview = useOverview();
  const summary = summarizeHealth({
    health: health.data,
    isLoading: health.isLoading,
    ...(health.isError ? { error: 'The gateway did not answer.' } : {}),
  });
  const figures = new Map((overview.data?.services ?? []).map((s) => [s.service, s] as const));
  return (
    <Section
      id="system-health"
      title="System Health"
      description={health.data ? `${summary.headline} · version ${health.data.version}` : summary.headline}
    >
      <Panel className="p-4">
        {health.data === undefined ? (
          health.isLoading ? (
            <Spinner label="Checking services..." className="py-6" />
          ) : (
            <LoadError title="Status unavailable" error={health.error} onRetry={() => void health.refetch()} />
          )
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Services">
            {serviceRows(health.data).map((row) => {
              const metrics = figures.get(row.name as AdminServiceFigures['service']);
              return (
                <li
                  key={row.name}
                  data-service={row.name}
                  className="flex items-center gap-3 rounded-lg bg-muted px-3 py-2"
                >
                  <Activity className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium capitalize">{row.name}</p>
                    <p className="text-xs text-muted-foreground">
                      health {formatLatency(row.latencyMs)}
                      {metrics?.up ? ` · ${metrics.requests} requests in the last hour` : ''}
                    </p>
                  </div>
                  <Badge tone={row.status === 'up' ? 'success' : 'destructive'} data-state={row.status}>
                    {row.status === 'up' ? 'Up' : 'Down'}
                  </Badge>
                </li>
              );
            })}
          </ul>
        )}
      </Panel>
    </Section>
  );
}
