import { screenedByLabel, type ScreeningLog } from '@vigil/proto';
import { Button, Input, Label, StatCard, toast, QueryView } from '@vigil/ui';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Download, Eye, FileText, RefreshCw, Search, ShieldAlert, ShieldCheck, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { usePageTitle } from '../shell/page-title.js';
import { logStatus, percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog } from './entity-details-dialog.js';
import { countFormat, EmptyState, formatDateTime, StatusBadge, today, useServerDownload } from './parts.js';
import { localDayBound } from './alerts-filter.js';
import { useGetLogsQuery } from './screening.api.js';
import { ScreenedBySelect } from './screened-by-select.js';
import { ScreeningDecisionNote } from './screening-decision.js';

/** Spec §9: logs page size 100, search debounced 300 ms. */
const PAGE_SIZE = 100;
const SEARCH_DEBOUNCE_MS = 300;

type Tab = 'all' | 'matches' | 'alerts' | 'clear';
const TABS: readonly [Tab, string][] = [
  ['all', 'All'],
  ['matches', 'Matches'],
  ['alerts', 'Alerts'],
  ['clear', 'Clear'],
];

const TAB_QUERY: Record<Tab, { matchFound?: boolean; status?: 'blocked' }> = {
  all: {},
  matches: { matchFound: true },
  alerts: { status: 'blocked' },
  clear: { matchFound: false },
};

const SELECT_CLASS =
  'h-10 w-full rounded-lg border border-input bg-surface px-3 text-sm text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30';

const column = createColumnHelper<ScreeningLog>();

/** /dashboard/screening/logs: every screening of the client, searchable, filtered by outcome. */
export function LogsPage() {
  usePageTitle('Screening Logs');
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState('');
  const [tab, setTab] = useState<Tab>('all');
  /** YYYY-MM-DD in the viewer's time zone, inclusive; '' for no bound. */
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [screenedBy, setScreenedBy] = useState('');
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<ScreeningLog | null>(null);
  // Spec §8 names this export's failure: "Failed to export logs".
  const [download, downloading] = useServerDownload('Failed to export logs');
  const openLog = useCallback((log: ScreeningLog) => {
    if (log.sanctioned_entity_id) setOpen(log);
    else toast({ title: 'No Entity Details', description: 'This log entry has no associated entity details.' });
  }, []);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearched(search.trim());
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search]);

  const fromDate = from ? localDayBound(from) : undefined;
  const toDate = to ? localDayBound(to, true) : undefined;
  // Every filter, the Alerts tab's included, is the server's: its pages and totals are the client's whole history.
  const logs = useGetLogsQuery({
    ...(searched ? { searchedName: searched } : {}),
    ...TAB_QUERY[tab],
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    ...(screenedBy ? { screenedBy } : {}),
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  });
  const filtered = Boolean(searched || from || to || screenedBy);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Screening Logs"
        description="Every screening your organisation ran, newest first."
        actions={
          <>
            <Button
              variant="outline"
              disabled={downloading}
              onClick={() => void download('/api/client/reports/screening-logs', `screening-logs-${today()}.json`)}
            >
              <Download aria-hidden /> Export JSON
            </Button>
            <Button variant="outline" onClick={() => void logs.refetch()} disabled={logs.isFetching}>
              <RefreshCw className={logs.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
            </Button>
          </>
        }
      />
      <div role="search" aria-label="Search logs" className="mb-4 grid grid-cols-2 items-end gap-3 lg:grid-cols-4">
        <div className="col-span-2 flex flex-col gap-1.5">
          <Label htmlFor="logs-search">Search by name</Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              id="logs-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="pl-9"
              placeholder="Searched name"
            />
          </div>
        </div>
        <div className="col-span-2 flex flex-col gap-1.5 sm:col-span-1">
          <Label htmlFor="logs-screened-by">Screened by</Label>
          <ScreenedBySelect
            id="logs-screened-by"
            className={SELECT_CLASS}
            value={screenedBy}
            onChange={(value) => {
              setScreenedBy(value);
              setPage(0);
            }}
          />
        </div>
        <div className="col-span-2 grid grid-cols-2 gap-3 sm:col-span-1">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="logs-from">From</Label>
            <Input
              id="logs-from"
              type="date"
              value={from}
              max={to || undefined}
              onChange={(e) => {
                setFrom(e.target.value);
                setPage(0);
              }}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="logs-to">To</Label>
            <Input
              id="logs-to"
              type="date"
              value={to}
              min={from || undefined}
              onChange={(e) => {
                setTo(e.target.value);
                setPage(0);
              }}
            />
          </div>
        </div>
      </div>
      <QueryView query={logs} errorTitle="Unable to fetch screening logs">
        {(data) => {
          const rows = data.logs;
          const count: Record<Tab, number> = data.counts;
          const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
          return (
            <div className="flex flex-col gap-4">
              <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
                <StatCard
                  label="Total screenings"
                  value={countFormat.format(data.counts.all)}
                  icon={<FileText aria-hidden />}
                  tone="brand"
                />
                <StatCard
                  label="Matches"
                  value={countFormat.format(data.counts.matches)}
                  icon={<TriangleAlert aria-hidden />}
                  tone="warning"
                />
                <StatCard
                  label="Alerts"
                  value={countFormat.format(data.counts.alerts)}
                  icon={<ShieldAlert aria-hidden />}
                  tone="destructive"
                />
                <StatCard
                  label="Clear"
                  value={countFormat.format(data.counts.clear)}
                  icon={<ShieldCheck aria-hidden />}
                  tone="success"
                />
              </div>
              <div role="group" aria-label="Filter logs" className="flex flex-wrap gap-2">
                {TABS.map(([value, label]) => (
                  <Button
                    key={value}
                    size="sm"
                    variant={tab === value ? 'primary' : 'outline'}
                    aria-pressed={tab === value}
                    onClick={() => {
                      setTab(value);
                      setPage(0);
                    }}
                  >
                    {label} ({countFormat.format(count[value])})
                  </Button>
                ))}
              </div>
              {rows.length === 0 ? (
                <EmptyState title="No screening logs found">
                  {filtered || tab !== 'all'
                    ? 'Nothing matches these filters.'
                    : 'Start screening some names to generate logs.'}
                </EmptyState>
              ) : (
                <LogsTable rows={rows} onOpen={openLog} />
              )}
              {pages > 1 && (
                <div className="flex items-center justify-end gap-2 text-sm">
                  <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                    Previous
                  </Button>
                  <span>
                    Page {page + 1} of {pages}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={page + 1 >= pages}
                    onClick={() => setPage((p) => p + 1)}
                  >
                    Next
                  </Button>
                </div>
              )}
            </div>
          );
        }}
      </QueryView>
      <EntityDetailsDialog
        entityId={open?.sanctioned_entity_id ?? null}
        match={
          open?.sanctioned_entity_id
            ? {
                score: open.score,
                status: logStatus(open),
                label: open.confidence,
                matchedName: open.matched_entity_name ?? '—',
              }
            : undefined
        }
        onClose={() => setOpen(null)}
      />
    </div>
  );
}

/** TanStack Table for the columns, TanStack Virtual for the rows: a page of 100 stays light. */
function LogsTable({ rows, onOpen }: { rows: ScreeningLog[]; onOpen: (log: ScreeningLog) => void }) {
  const columns = useMemo(
    () => [
      column.accessor((log) => logStatus(log), {
        id: 'status',
        header: 'Status',
        cell: (c) => {
          const cleared = c.row.original.cleared;
          return (
            <>
              <StatusBadge status={c.getValue()} />
              {cleared && <ScreeningDecisionNote verb="Block cleared" decision={cleared} testId="log-cleared" />}
            </>
          );
        },
      }),
      column.accessor((log) => log.searched_name ?? log.searched_email ?? '—', { id: 'name', header: 'Searched name' }),
      column.accessor('matched_entity_name', { header: 'Matched entity', cell: (c) => c.getValue() ?? '—' }),
      column.accessor('source_list', { header: 'Source', cell: (c) => (c.getValue() ? feedLabel(c.getValue()) : '—') }),
      column.accessor('score', { header: 'Score', cell: (c) => percent(c.getValue(), 1) }),
      column.accessor((log) => screenedByLabel(log.screened_by) || '—', { id: 'screenedBy', header: 'Screened by' }),
      column.accessor('createdAt', { header: 'Date', cell: (c) => formatDateTime(c.getValue()) }),
      column.display({
        id: 'details',
        header: () => <span className="sr-only">Details</span>,
        cell: (c) => (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onOpen(c.row.original)}
            aria-label={`Details for ${c.row.original.searched_name ?? 'this screening'}`}
          >
            <Eye aria-hidden />
          </Button>
        ),
      }),
    ],
    [onOpen],
  );
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel() });
  const parent = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtual = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 48,
    overscan: 10,
  });
  const items = virtual.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtual.getTotalSize() - (items[items.length - 1]?.end ?? 0);

  return (
    <div
      ref={parent}
      className="max-h-[36rem] overflow-auto rounded-card border border-border bg-surface"
      tabIndex={0}
      role="region"
      aria-label="Screening logs"
    >
      <table className="w-full min-w-[52rem] text-left text-sm">
        <thead className="sticky top-0 z-10 bg-muted text-xs text-muted-foreground">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className="px-3 py-2 font-medium">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden>
              <td style={{ height: padTop }} colSpan={columns.length} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index]!;
            return (
              <tr key={row.id} className="h-12 border-t border-border" data-testid="log-row">
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className="max-w-[16rem] truncate px-3 py-1.5">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden>
              <td style={{ height: padBottom }} colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
