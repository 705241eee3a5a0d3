import type { SanctionAlert } from '@vigil/proto';
import { Badge, Button, StatCard } from '@vigil/ui';
import { Bell, Eye, RefreshCw, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog } from './entity-details-dialog.js';
import { countFormat, EmptyState, formatDateTime, QueryView, StatusBadge } from './parts.js';
import { useGetAlertsQuery } from './screening.api.js';

type Filter = 'all' | 'blocked';

/** /dashboard/screening/alerts: blocked screenings, read-only (spec §2, §4: every alert shows as Blocked). */
export function AlertsPage() {
  usePageTitle('Alerts');
  const alerts = useGetAlertsQuery();
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<SanctionAlert | null>(null);

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Sanction Alerts"
        description="Screenings that hit a list at or above your blocking threshold. Alerts are read-only."
        actions={
          <Button variant="outline" onClick={() => void alerts.refetch()} disabled={alerts.isFetching}>
            <RefreshCw className={alerts.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
          </Button>
        }
      />
      <QueryView query={alerts} errorTitle="Unable to fetch sanction alerts">
        {(data) => (
          <div className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <StatCard
                label="Total alerts"
                value={countFormat.format(data.total)}
                icon={<Bell aria-hidden />}
                tone="brand"
              />
              <StatCard
                label="Blocked"
                value={countFormat.format(data.total)}
                icon={<ShieldAlert aria-hidden />}
                tone="destructive"
              />
              <StatCard
                label="Unreviewed"
                value={countFormat.format(data.unreviewed)}
                icon={<Eye aria-hidden />}
                tone="warning"
              />
            </div>
            <div role="group" aria-label="Filter alerts" className="flex gap-2">
              {(['all', 'blocked'] as const).map((value) => (
                <Button
                  key={value}
                  size="sm"
                  variant={filter === value ? 'primary' : 'outline'}
                  aria-pressed={filter === value}
                  onClick={() => setFilter(value)}
                >
                  {value === 'all' ? 'All Alerts' : 'Blocked'} ({countFormat.format(data.total)})
                </Button>
              ))}
            </div>
            {data.alerts.length === 0 ? (
              <EmptyState title="No alerts">Alerts are generated when potential matches are detected.</EmptyState>
            ) : (
              <ul className="flex flex-col gap-3">
                {data.alerts.map((alert) => (
                  <li key={alert.id} className="rounded-card border border-border bg-surface p-4 shadow-card">
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div className="min-w-0">
                        <div className="flex flex-wrap items-center gap-2">
                          <StatusBadge status="blocked" />
                          <span className="font-semibold break-words">{alert.full_name ?? alert.email ?? '—'}</span>
                          {!alert.reviewed && <Badge tone="warning">Unreviewed</Badge>}
                        </div>
                        <p className="mt-1 text-sm text-muted-foreground">
                          Matched <strong className="text-foreground">{alert.matched_name}</strong> ·{' '}
                          {alert.match_reason} · risk {percent(alert.risk_score)} · {formatDateTime(alert.triggered_at)}
                        </p>
                      </div>
                      <Button size="sm" variant="outline" onClick={() => setOpen(alert)}>
                        <Eye aria-hidden /> Details
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </QueryView>
      <EntityDetailsDialog
        entityId={open?.matched_entity_id ?? null}
        match={
          open
            ? { score: open.risk_score, status: 'blocked', label: open.confidence, matchedName: open.matched_name }
            : undefined
        }
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
