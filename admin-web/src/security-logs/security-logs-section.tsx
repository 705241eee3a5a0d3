import { SECURITY_EVENT_TYPES, SECURITY_LOG_TIME_FILTERS, type SecurityLog } from '@vigil/proto';
import { Badge, Button, Dialog, DialogContent, DialogDescription, DialogTitle, Input, Label, Spinner } from '@vigil/ui';
import { Download, RefreshCw, Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../app/hooks.js';
import { notifyFailure, notifySuccess } from '../shell/notify.js';
import { formatCount, formatDateTime, Panel, Section, Select } from '../shell/parts.js';
import { exportSecurityLogs } from './export-logs.js';
import {
  INITIAL_FILTERS,
  SEARCH_DEBOUNCE_MS,
  type EventTypeFilter,
  type LogFilters,
  type TimeFilter,
} from './log-filters.js';
import { useGetSecurityLogsQuery } from './security-logs.api.js';

const TIME_LABEL: Readonly<Record<TimeFilter, string>> = {
  all: 'All time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

const EVENT_TONE: Readonly<Record<SecurityLog['event'], 'neutral' | 'brand' | 'warning' | 'destructive'>> = {
  ADMIN_ACCESS: 'brand',
  CLIENT_ACCESS: 'neutral',
  FAILED_AUTH: 'warning',
  RATE_LIMIT_VIOLATION: 'warning',
  SUSPICIOUS_ACTIVITY: 'destructive',
};

/** Spec §2 "Security & Compliance Logs panel", over the audit trail's admin routes. */
export function SecurityLogsSection() {
  const store = useAppStore();
  const [draft, setDraft] = useState<LogFilters>(INITIAL_FILTERS);
  const [filters, setFilters] = useState<LogFilters>(INITIAL_FILTERS);
  const [selected, setSelected] = useState<SecurityLog | null>(null);
  const [exporting, setExporting] = useState(false);

  // Every filter change is sent 300 ms after the last one, so typing a search sends one request.
  useEffect(() => {
    const timer = window.setTimeout(() => setFilters(draft), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);

  const logs = useGetSecurityLogsQuery(filters);
  const failedBefore = useRef(false);
  useEffect(() => {
    if (logs.isError && !failedBefore.current) {
      notifyFailure('Error', undefined, 'Failed to load security logs. Make sure the backend service is running.');
    }
    failedBefore.current = logs.isError;
  }, [logs.isError]);

  // Spec §8: a failed load empties the list rather than showing stale rows.
  const rows = logs.isError ? [] : (logs.currentData?.logs ?? []);
  const summary = logs.isError ? undefined : logs.currentData?.summary;

  async function onExport() {
    setExporting(true);
    try {
      await exportSecurityLogs(store, filters);
      notifySuccess('Export Successful', 'Security logs have been exported to CSV file');
    } catch {
      notifyFailure('Export Failed', undefined, 'Failed to export security logs. Please try again.');
    } finally {
      setExporting(false);
    }
  }

  const counts: [string, number | undefined][] = [
    ['Total', summary?.total],
    ['Failed Auth', summary?.failedAuth],
    ['Admin Access', summary?.adminAccess],
    ['Client Access', summary?.clientAccess],
    ['Suspicious', summary?.suspicious],
    ['Rate Limited', summary?.rateLimited],
  ];

  return (
    <Section
      id="security-logs"
      title="Security & Compliance Logs"
      description="Sign-ins, admin and client access, rate-limit hits and suspicious requests, from the audit trail."
      actions={
        <>
          <Button size="sm" variant="outline" onClick={() => void logs.refetch()} disabled={logs.isFetching}>
            <RefreshCw aria-hidden className={logs.isFetching ? 'animate-spin' : undefined} /> Refresh
          </Button>
          <Button size="sm" variant="outline" onClick={() => void onExport()} disabled={exporting}>
            <Download aria-hidden /> Export to CSV
          </Button>
        </>
      }
    >
      <Panel className="p-4">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6" aria-label="Security log counts">
          {counts.map(([label, value]) => (
            <div key={label} className="rounded-lg bg-muted px-3 py-2">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-count={label}>
                {value === undefined ? '—' : formatCount(value)}
              </dd>
            </div>
          ))}
        </dl>

        <div className="mt-4 grid gap-2 sm:grid-cols-[minmax(0,1fr)_12rem_10rem]">
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              type="search"
              aria-label="Search security logs"
              placeholder="Search by ip, endpoint, email or client"
              className="pl-9"
              value={draft.searchTerm}
              onChange={(event) => setDraft({ ...draft, searchTerm: event.target.value })}
            />
          </div>
          <div>
            <Label htmlFor="log-event-type" className="sr-only">
              Event type
            </Label>
            <Select
              id="log-event-type"
              value={draft.eventType}
              onChange={(event) => setDraft({ ...draft, eventType: event.target.value as EventTypeFilter })}
            >
              <option value="all">All events</option>
              {SECURITY_EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="log-time" className="sr-only">
              Time
            </Label>
            <Select
              id="log-time"
              value={draft.timeFilter}
              onChange={(event) => setDraft({ ...draft, timeFilter: event.target.value as TimeFilter })}
            >
              {(['all', ...SECURITY_LOG_TIME_FILTERS.filter((f) => f !== 'all')] as TimeFilter[]).map((value) => (
                <option key={value} value={value}>
                  {TIME_LABEL[value]}
                </option>
              ))}
            </Select>
          </div>
        </div>

        <div className="mt-4">
          {logs.isLoading ? (
            <Spinner label="Loading security logs..." className="py-10" />
          ) : rows.length === 0 ? (
            <p className="py-10 text-center text-sm text-muted-foreground">No logs found matching your criteria</p>
          ) : (
            <div className="max-h-[32rem] overflow-auto rounded-lg border border-border">
              <table className="w-full min-w-[48rem] text-left text-sm" data-testid="security-log-rows">
                <thead className="sticky top-0 bg-surface text-xs text-muted-foreground">
                  <tr>
                    {['Event', 'Time', 'IP', 'Endpoint', 'Admin', 'Client'].map((label) => (
                      <th key={label} scope="col" className="border-b border-border px-3 py-2 font-medium">
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((log) => (
                    <tr
                      key={log.id}
                      tabIndex={0}
                      onClick={() => setSelected(log)}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter' || event.key === ' ') {
                          event.preventDefault();
                          setSelected(log);
                        }
                      }}
                      className="cursor-pointer border-b border-border last:border-0 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      <td className="px-3 py-2">
                        <Badge tone={EVENT_TONE[log.event]}>{log.event}</Badge>
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(log.timestamp)}</td>
                      <td className="px-3 py-2 font-mono text-xs">{log.details.ip ?? '—'}</td>
                      <td className="max-w-[16rem] truncate px-3 py-2 font-mono text-xs" title={log.details.endpoint}>
                        {log.details.method ? `${log.details.method} ` : ''}
                        {log.details.endpoint}
                      </td>
                      <td className="px-3 py-2">{log.details.adminEmail ?? '—'}</td>
                      <td className="px-3 py-2">{log.details.clientName ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </Panel>

      <Dialog open={selected !== null} onOpenChange={(open) => !open && setSelected(null)}>
        <DialogContent className="max-w-2xl">
          <DialogTitle>{selected?.event}</DialogTitle>
          <DialogDescription>{formatDateTime(selected?.timestamp)}</DialogDescription>
          <pre className="mt-4 max-h-[60vh] overflow-auto rounded-lg bg-muted p-3 text-xs" data-testid="log-details">
            {selected ? JSON.stringify(selected.details, null, 2) : ''}
          </pre>
        </DialogContent>
      </Dialog>
    </Section>
  );
}
