import type { SanctionAlert } from '@vigil/proto';
import { MATCH_LABELS, screenedByLabel } from '@vigil/proto';
import { Badge, Button, cn, Input, Label, StatGrid, QueryView } from '@vigil/ui';
import { Bell, Eye, RefreshCw, ShieldAlert, X } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog } from './entity-details-dialog.js';
import { countFormat, EmptyState, formatDateTime, StatusBadge } from './parts.js';
import { useGetAlertsQuery } from './screening.api.js';
import { alertsQuery, hasAlertFilters, NO_ALERT_FILTERS, type AlertFilters } from './alerts-filter.js';
import { ScreenedBySelect } from './screened-by-select.js';
import { ScreeningDecisionNote } from './screening-decision.js';

type Filter = 'all' | 'blocked';
const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

const SELECT_CLASS =
  'h-10 w-full rounded-lg border border-input bg-surface px-3 text-sm text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30';

/**
 * /dashboard/screening/alerts: blocked screenings, read-only (spec §2, §4: every alert shows as
 * Blocked), with a search, review state, confidence, date and screened-by filters applied by the
 * server over every alert of the client, a page at a time.
 */
export function AlertsPage() {
  usePageTitle('Alerts');
  const [filter, setFilter] = useState<Filter>('all');
  const [filters, setFilters] = useState<AlertFilters>(NO_ALERT_FILTERS);
  // The search goes to the server once typing pauses; the other filters at once.
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<SanctionAlert | null>(null);
  const set = <K extends keyof AlertFilters>(key: K, value: AlertFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(0);
  };
  useEffect(() => {
    if (search === filters.search) return;
    const timer = window.setTimeout(() => {
      setFilters((current) => ({ ...current, search }));
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, filters.search]);
  const alerts = useGetAlertsQuery(alertsQuery(filters, page, PAGE_SIZE));

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
            <StatGrid
              className="grid-cols-2 sm:grid-cols-3"
              stats={[
                { label: 'Total alerts', count: data.all, icon: Bell, tone: 'brand' },
                { label: 'Blocked', count: data.all, icon: ShieldAlert, tone: 'destructive' },
                { label: 'Unreviewed', count: data.unreviewed, icon: Eye, tone: 'warning' },
              ]}
            />
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
            <form
              role="search"
              aria-label="Filter alerts"
              className="grid grid-cols-2 items-end gap-3 rounded-card border border-border bg-surface p-4 lg:grid-cols-4"
              onSubmit={(event) => event.preventDefault()}
            >
              <FilterField label="Search" htmlFor="alert-search" className="col-span-2">
                <Input
                  id="alert-search"
                  type="search"
                  placeholder="Searched name or email"
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                />
              </FilterField>
              <FilterField label="Review state" htmlFor="alert-reviewed" className="col-span-2 sm:col-span-1">
                <select
                  id="alert-reviewed"
                  className={SELECT_CLASS}
                  value={filters.reviewed}
                  onChange={(event) => set('reviewed', event.target.value as AlertFilters['reviewed'])}
                >
                  <option value="any">Any</option>
                  <option value="unreviewed">Unreviewed</option>
                  <option value="reviewed">Reviewed</option>
                </select>
              </FilterField>
              <FilterField label="Confidence" htmlFor="alert-confidence" className="col-span-2 sm:col-span-1">
                <select
                  id="alert-confidence"
                  className={SELECT_CLASS}
                  value={filters.confidence}
                  onChange={(event) => set('confidence', event.target.value)}
                >
                  <option value="">Any</option>
                  {MATCH_LABELS.filter((label) => label !== 'No Match').map((label) => (
                    <option key={label} value={label}>
                      {label}
                    </option>
                  ))}
                </select>
              </FilterField>
              <FilterField label="From" htmlFor="alert-from">
                <Input
                  id="alert-from"
                  type="date"
                  value={filters.from}
                  max={filters.to || undefined}
                  onChange={(event) => set('from', event.target.value)}
                />
              </FilterField>
              <FilterField label="To" htmlFor="alert-to">
                <Input
                  id="alert-to"
                  type="date"
                  value={filters.to}
                  min={filters.from || undefined}
                  onChange={(event) => set('to', event.target.value)}
                />
              </FilterField>
              <FilterField label="Screened by" htmlFor="alert-screened-by" className="col-span-2 sm:col-span-1">
                <ScreenedBySelect
                  id="alert-screened-by"
                  className={SELECT_CLASS}
                  value={filters.screenedBy}
                  onChange={(value) => set('screenedBy', value)}
                />
              </FilterField>
              <Button
                variant="ghost"
                className="col-span-2 justify-self-start"
                onClick={() => {
                  setSearch('');
                  setFilters(NO_ALERT_FILTERS);
                  setPage(0);
                }}
                disabled={!hasAlertFilters(filters)}
              >
                <X aria-hidden /> Clear filters
              </Button>
            </form>
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="alerts-shown">
              {hasAlertFilters(filters)
                ? `${countFormat.format(data.total)} of ${countFormat.format(data.all)} alerts match the filters`
                : `${countFormat.format(data.all)} alerts`}
            </p>
            {data.all === 0 ? (
              <EmptyState title="No alerts found">Alerts are generated when potential matches are detected.</EmptyState>
            ) : data.alerts.length === 0 ? (
              <EmptyState title="No alerts match these filters">Clear a filter to see more.</EmptyState>
            ) : (
              <ul className="flex flex-col gap-3">
                {data.alerts.map((alert) => (
                  <li
                    key={alert.id}
                    data-testid="alert-card"
                    className="rounded-card border border-border bg-surface p-4 shadow-card"
                  >
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div className="min-w-0">
                        <div className="flex flex-wrap items-center gap-2">
                          <StatusBadge status="blocked" />
                          <span className="font-semibold break-words">{alert.full_name ?? alert.email ?? '—'}</span>
                          {!alert.reviewed && <Badge tone="warning">Unreviewed</Badge>}
                          {alert.review_outcome === 'cleared' && <Badge tone="success">Cleared on review</Badge>}
                          {alert.review_outcome === 'confirmed' && <Badge tone="destructive">Block confirmed</Badge>}
                        </div>
                        {alert.review && (
                          <ScreeningDecisionNote
                            verb={alert.review_outcome === 'cleared' ? 'Cleared' : 'Confirmed'}
                            decision={alert.review}
                            testId="alert-review"
                          />
                        )}
                        <p className="mt-1 text-sm text-muted-foreground">
                          Matched <strong className="text-foreground">{alert.matched_name}</strong> · {alert.confidence}{' '}
                          · risk {percent(alert.risk_score)} · {formatDateTime(alert.triggered_at)}
                          {alert.screened_by && <> · screened by {screenedByLabel(alert.screened_by)}</>}
                        </p>
                        {/* The reason is the matcher's whole explanation: two lines here, all of it on hover and to screen readers. */}
                        <p
                          className="mt-1 line-clamp-2 text-xs break-words text-muted-foreground"
                          title={alert.match_reason}
                        >
                          {alert.match_reason}
                        </p>
                      </div>
                      <Button size="sm" variant="outline" onClick={() => setOpen(alert)}>
                        <Eye aria-hidden /> Details
                        <span className="sr-only">
                          {' '}
                          of the alert for {alert.full_name ?? alert.email ?? 'this screening'}
                        </span>
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <Pager page={page} pages={Math.ceil(data.total / PAGE_SIZE)} onPage={setPage} />
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

/** Previous / Next over the server's pages of alerts. */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <div className="flex items-center justify-end gap-2 text-sm">
      <Button size="sm" variant="outline" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <Button size="sm" variant="outline" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </div>
  );
}

function FilterField({
  label,
  htmlFor,
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
    </div>
  );
}
