import type { BulkItem, BulkJobResponse } from '@vigil/proto';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  Progress,
  StatCard,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  isApiError,
} from '@vigil/ui';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  CheckCircle2,
  Download,
  Eye,
  FileUp,
  Loader2,
  ListChecks,
  ShieldAlert,
  ShieldCheck,
  TriangleAlert,
  X,
} from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { usePageTitle } from '../shell/page-title.js';
import {
  BULK_SYNC_LIMIT,
  bulkStatus,
  checkBulkNames,
  checkCsvFile,
  namesFromCsv,
  bulkRowsFromText,
  percent,
  type MatchStatus,
} from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { EntityDetailsDialog } from './entity-details-dialog.js';
import { countFormat, EmptyState, saveBlob, StatusBadge, useServerDownload } from './parts.js';
import { useBulkSearchMutation, useGetBulkJobQuery } from './screening.api.js';

/** Where the running job's id is kept, so a reload finds it again (an id, never a secret). */
export const BULK_JOB_STORAGE_KEY = 'vigil.bulk-job';
const JOB_POLL_MS = 1_000;
/** Spec §4: the synchronous run's bar moves +10% every 200 ms up to 90%, then 100%, then resets after 1 s. */
const SIMULATED_STEP_MS = 200;
const RESET_AFTER_MS = 1_000;

type Mode = 'sync' | 'job';
type Row = BulkItem & { row?: number };
type JobRow = BulkJobResponse['results'][number];

/** A job row that was screened (a row the worker could not screen carries its error instead). */
const isScreened = (r: JobRow): r is BulkItem & { row: number } => r.status !== 'failed';

function readStoredJob(): string | null {
  try {
    return localStorage.getItem(BULK_JOB_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeJob(id: string | null) {
  try {
    if (id) localStorage.setItem(BULK_JOB_STORAGE_KEY, id);
    else localStorage.removeItem(BULK_JOB_STORAGE_KEY);
  } catch {
    // Without storage the job still runs; only a reload loses sight of it.
  }
}

/** /dashboard/screening/bulk-search: up to 1,000 names at once, or a background job for more. */
export function BulkSearchPage() {
  usePageTitle('Bulk Search');
  const [text, setText] = useState('');
  const [mode, setMode] = useState<Mode>('sync');
  const [tab, setTab] = useState('input');
  const [syncRows, setSyncRows] = useState<Row[] | null>(null);
  const [simulated, setSimulated] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(() => readStoredJob());
  const [bulkSearch, bulk] = useBulkSearchMutation();
  const fileInput = useRef<HTMLInputElement>(null);
  // A 100,000-line paste must not make typing wait for the count.
  const deferredText = useDeferredValue(text);
  const rows = useMemo(() => bulkRowsFromText(deferredText), [deferredText]);
  const names = useMemo(() => rows.map((row) => row.name), [rows]);

  // While the job runs, a small page is enough for the progress; once it is over, its first 1,000 results.
  const [jobDone, setJobDone] = useState(false);
  const job = useGetBulkJobQuery(
    { id: jobId ?? '', limit: jobDone ? 1000 : 20 },
    { skip: !jobId, pollingInterval: jobDone ? 0 : JOB_POLL_MS, skipPollingIfUnfocused: false },
  );
  const jobView: BulkJobResponse | undefined = job.data;
  useEffect(() => {
    if (job.data?.status === 'completed') setJobDone(true);
  }, [job.data?.status]);
  useEffect(() => setJobDone(false), [jobId]);

  useEffect(() => {
    if (job.isError && isApiError(job.error) && job.error.status === 404) {
      storeJob(null);
      setJobId(null);
    }
  }, [job.isError, job.error]);

  const wasRunning = useRef(false);
  useEffect(() => {
    if (!jobView) return;
    if (jobView.status === 'completed' && wasRunning.current) {
      wasRunning.current = false;
      const blocked = jobView.results.filter((r) => isScreened(r) && r.blocked).length;
      toast({
        title: 'Bulk Search Complete',
        description: `Processed ${countFormat.format(jobView.total)} entities. Open Results for the summary and exports${blocked ? ` (${blocked} blocked on the first page)` : ''}.`,
      });
    } else if (jobView.status !== 'completed') wasRunning.current = true;
  }, [jobView]);

  const start = async () => {
    const problem = checkBulkNames(names, mode);
    if (problem) {
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      return;
    }
    let timer: number | undefined;
    if (mode === 'sync') {
      setSimulated(0);
      timer = window.setInterval(
        () => setSimulated((p) => (p === null ? null : Math.min(0.9, p + 0.1))),
        SIMULATED_STEP_MS,
      );
    }
    try {
      const outcome = await bulkSearch({ entities: rows }).unwrap();
      if (outcome.kind === 'job') {
        storeJob(outcome.job.jobId);
        setJobId(outcome.job.jobId);
        wasRunning.current = true;
        toast({
          title: 'Bulk Job Started',
          description: `${countFormat.format(outcome.job.total)} names are being screened in the background. You can leave this page.`,
        });
        return;
      }
      const { results, summary } = outcome.response;
      setSyncRows(results);
      setSimulated(1);
      window.setTimeout(() => setSimulated(null), RESET_AFTER_MS);
      toast({
        title: 'Bulk Search Complete',
        description: `Processed ${summary.total} entities. Found ${summary.matches} matches (${summary.blocked} blocked)`,
      });
      setTab('results');
    } catch (error) {
      setSimulated(null);
      toast({
        title: 'Bulk Search Failed',
        description: isApiError(error) ? error.message : 'An unexpected error occurred during bulk screening',
        variant: 'destructive',
      });
    } finally {
      window.clearInterval(timer);
    }
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkCsvFile(file);
    if (problem) {
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      return;
    }
    const fromFile = namesFromCsv(await file.text());
    setText(fromFile.join('\n'));
    if (fromFile.length > BULK_SYNC_LIMIT) setMode('job');
    toast({
      title: 'File loaded',
      description: `${countFormat.format(fromFile.length)} names read from ${file.name}.`,
    });
  };

  const forgetJob = () => {
    storeJob(null);
    setJobId(null);
  };

  const running = jobView && (jobView.status === 'queued' || jobView.status === 'running');
  const progress = running || (jobView && jobId) ? (jobView?.progress ?? 0) : (simulated ?? 0);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Bulk Search"
        description="Screen a list of names: up to 1,000 answer at once; larger lists (up to 100,000) run as a background job."
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="input">Bulk Search</TabsTrigger>
          <TabsTrigger value="results">Results</TabsTrigger>
        </TabsList>
        <TabsContent value="input" className="mt-4">
          <Card>
            <CardContent className="flex flex-col gap-4 pt-6">
              <fieldset className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                <legend className="mb-2 font-medium">Run as</legend>
                <label className="flex cursor-pointer items-center gap-2">
                  <input
                    type="radio"
                    name="bulk-mode"
                    checked={mode === 'sync'}
                    onChange={() => setMode('sync')}
                    className="accent-primary"
                  />
                  Instant results (up to 1,000 names)
                </label>
                <label className="flex cursor-pointer items-center gap-2">
                  <input
                    type="radio"
                    name="bulk-mode"
                    checked={mode === 'job'}
                    onChange={() => setMode('job')}
                    className="accent-primary"
                  />
                  Background job (up to 100,000 names)
                </label>
              </fieldset>
              <div className="flex flex-col gap-2">
                <div className="flex items-end justify-between gap-2">
                  <Label htmlFor="bulk-names">Names, one per line</Label>
                  <span
                    className="text-sm text-muted-foreground tabular-nums"
                    data-testid="entity-count"
                    aria-live="polite"
                  >
                    {countFormat.format(names.length)} {names.length === 1 ? 'entity' : 'entities'}
                  </span>
                </div>
                <textarea
                  id="bulk-names"
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                  rows={10}
                  spellCheck={false}
                  placeholder={'Nicolas Maduro Moros\nMargaret Thornbury\n...'}
                  className="w-full rounded-lg border border-input bg-surface px-3 py-2 font-mono text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-ring"
                  aria-describedby="bulk-names-hint"
                />
                <p id="bulk-names-hint" className="text-xs text-muted-foreground">
                  Add your customer reference after a tab (paste two spreadsheet columns, or a CSV with a reference
                  column); each result shows it, or the row number when there is none.
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button onClick={() => void start()} disabled={bulk.isLoading || names.length === 0}>
                  {bulk.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <ListChecks aria-hidden />}
                  {mode === 'sync' ? 'Start Bulk Search' : 'Start Background Job'}
                </Button>
                <Button variant="outline" onClick={() => fileInput.current?.click()}>
                  <FileUp aria-hidden /> Upload CSV
                </Button>
                <input
                  ref={fileInput}
                  type="file"
                  accept=".csv,text/csv"
                  className="sr-only"
                  tabIndex={-1}
                  aria-label="CSV file"
                  onChange={(e) => void upload(e)}
                  data-testid="csv-input"
                />
                <Button variant="ghost" onClick={() => setText('')} disabled={text === ''}>
                  <X aria-hidden /> Clear
                </Button>
              </div>
              <div className="flex flex-col gap-1.5">
                <Progress value={progress} label="Bulk screening progress" />
                <p className="text-sm text-muted-foreground" data-testid="job-progress">
                  {jobView && jobId
                    ? `Job ${jobView.status}: ${countFormat.format(jobView.processed)} of ${countFormat.format(jobView.total)} names (${percent(jobView.progress)})`
                    : simulated !== null
                      ? 'Screening...'
                      : 'No search running.'}
                </p>
              </div>
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="results" className="mt-4">
          {jobId && jobView ? (
            <JobResults job={jobView} jobId={jobId} onForget={forgetJob} />
          ) : syncRows ? (
            <Results rows={syncRows} total={syncRows.length} exportSync={syncRows} />
          ) : (
            <EmptyState title="No Results Yet">Run a bulk search to see its results here.</EmptyState>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}

function JobResults({ job, jobId, onForget }: { job: BulkJobResponse; jobId: string; onForget: () => void }) {
  const [download, downloading] = useServerDownload();
  const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
  const done = job.status === 'completed';
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle>Background job</CardTitle>
            <CardDescription>
              {countFormat.format(job.processed)} of {countFormat.format(job.total)} names screened · {job.status}
            </CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              disabled={!done || downloading}
              onClick={() =>
                void download(`/api/sanctions/bulk-jobs/${jobId}`, `bulk-screening-results-${stamp()}.csv`, {
                  format: 'csv',
                })
              }
            >
              <Download aria-hidden /> Export CSV
            </Button>
            <Button
              variant="outline"
              disabled={!done || downloading}
              onClick={() =>
                void download(`/api/sanctions/bulk-jobs/${jobId}`, `bulk-screening-results-${stamp()}.json`, {
                  format: 'json-file',
                })
              }
            >
              <Download aria-hidden /> Export JSON
            </Button>
            <Button variant="ghost" onClick={onForget} disabled={!done}>
              New search
            </Button>
          </div>
        </CardHeader>
        <CardContent>
          <Progress value={job.progress} label="Background job progress" />
          {job.failed > 0 ? (
            <p className="mt-2 text-sm text-destructive">
              {countFormat.format(job.failed)} names could not be screened; the CSV and JSON exports give each one's
              reason.
            </p>
          ) : null}
        </CardContent>
      </Card>
      {job.results.length > 0 ? (
        <Results rows={job.results.filter(isScreened)} total={job.total} />
      ) : (
        <EmptyState title="No Results Yet">The first results appear as soon as the job has screened them.</EmptyState>
      )}
    </div>
  );
}

function Results({ rows, total, exportSync }: { rows: Row[]; total: number; exportSync?: Row[] }) {
  const [details, setDetails] = useState<Row | null>(null);
  const counts = useMemo(() => {
    const c: Record<MatchStatus, number> = { blocked: 0, review: 0, clear: 0 };
    for (const row of rows) c[bulkStatus(row)]++;
    return c;
  }, [rows]);
  const shownTotal = rows.length;
  // A job shows its first page here; the counts say so, and the exports hold every row.
  const partial = shownTotal < total ? `of the first ${countFormat.format(shownTotal)}` : undefined;
  const share = (n: number) => (shownTotal === 0 ? '0%' : `${((n / shownTotal) * 100).toFixed(1)}%`);

  const exportJson = () => {
    if (!exportSync) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    saveBlob(
      new Blob([JSON.stringify(exportSync, null, 2)], { type: 'application/json' }),
      `bulk-screening-results-${stamp}.json`,
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Total Processed"
          value={countFormat.format(total)}
          icon={<ListChecks aria-hidden />}
          tone="brand"
        />
        <StatCard
          label="Blocked"
          hint={partial}
          value={countFormat.format(counts.blocked)}
          icon={<ShieldAlert aria-hidden />}
          tone="destructive"
        />
        <StatCard
          label="Review Required"
          hint={partial}
          value={countFormat.format(counts.review)}
          icon={<TriangleAlert aria-hidden />}
          tone="warning"
        />
        <StatCard
          label="Clear"
          hint={partial}
          value={countFormat.format(counts.clear)}
          icon={<ShieldCheck aria-hidden />}
          tone="success"
        />
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Status distribution</CardTitle>
            {shownTotal < total && (
              <CardDescription>Of the first {countFormat.format(shownTotal)} results.</CardDescription>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            <p>Blocked: {share(counts.blocked)}</p>
            <p>Review: {share(counts.review)}</p>
            <p>Clear: {share(counts.clear)}</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Risk assessment</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            <p>High risk (blocked): {countFormat.format(counts.blocked)}</p>
            <p>Medium risk (review): {countFormat.format(counts.review)}</p>
            <p>Low risk (clear): {countFormat.format(counts.clear)}</p>
          </CardContent>
        </Card>
      </div>
      {exportSync && (
        <div>
          <Button variant="outline" onClick={exportJson}>
            <Download aria-hidden /> Export
          </Button>
        </div>
      )}
      {counts.blocked + counts.review === 0 && shownTotal === total && (
        <div className="flex items-center gap-3 rounded-card border border-success/40 bg-success-soft p-5 text-success-foreground">
          <CheckCircle2 className="size-6" aria-hidden />
          <p className="font-semibold">ALL CLEAR - no name in this batch matched a list.</p>
        </div>
      )}
      <VirtualRows rows={rows} onDetails={setDetails} />
      <EntityDetailsDialog
        entityId={details?.results[0]?.id ?? null}
        match={
          details?.results[0]
            ? {
                score: details.topScore,
                status: bulkStatus(details),
                label: details.label,
                matchedName: details.results[0].name,
              }
            : undefined
        }
        onClose={() => setDetails(null)}
      />
    </div>
  );
}

/** Thousands of rows stay fast: only the visible ones are in the page. */
function VirtualRows({ rows, onDetails }: { rows: Row[]; onDetails: (row: Row) => void }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 56,
    overscan: 8,
  });
  return (
    <div
      ref={parent}
      className="h-[28rem] overflow-auto rounded-card border border-border bg-surface"
      role="region"
      aria-label="Bulk results"
      tabIndex={0}
    >
      <ul style={{ height: virtual.getTotalSize(), position: 'relative' }} data-testid="bulk-results">
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const top = row.results[0];
          return (
            <li
              key={item.key}
              className="absolute inset-x-0 flex items-center gap-3 border-b border-border px-4"
              style={{ top: item.start, height: item.size }}
            >
              <StatusBadge status={bulkStatus(row)} />
              <span className="min-w-0 flex-1 truncate font-medium">{row.searchedName}</span>
              {row.reference && (
                <span
                  className="hidden w-32 truncate text-xs text-muted-foreground md:block"
                  data-testid="bulk-reference"
                >
                  {row.reference}
                </span>
              )}
              <span className="hidden min-w-0 flex-1 truncate text-sm text-muted-foreground sm:block">
                {top ? `${top.name} · ${feedLabel(top.sourceDataset)}` : 'No match'}
              </span>
              <span className="w-14 text-right text-sm tabular-nums">{percent(row.topScore)}</span>
              <Button
                size="sm"
                variant="ghost"
                disabled={!top}
                onClick={() => onDetails(row)}
                aria-label={`View Details for ${row.searchedName}`}
              >
                <Eye aria-hidden />
                <span className="hidden sm:inline">View Details</span>
              </Button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
