import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, StatCard } from '@vigil/ui';
import { Bell, Database, Download, FileJson, FileSpreadsheet, FileText, List, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { usePageTitle } from '../shell/page-title.js';
import { PageHeader } from './dashboard-shell.js';
import { countFormat, today, useServerDownload } from './parts.js';
import { useGetAlertsQuery, useGetListsQuery, useGetLogsQuery } from './screening.api.js';

type Report = { kind: string; title: string; description: string; file: () => string; icon: ReactNode };

/** Spec §9 download files; the server writes them, whatever the range. */
const REPORTS: readonly Report[] = [
  {
    kind: 'screening-logs',
    title: 'Screening Logs',
    description: 'Every screening your organisation ran, as JSON.',
    file: () => `screening-logs-${today()}.json`,
    icon: <FileJson aria-hidden />,
  },
  {
    kind: 'sanction-alerts',
    title: 'Sanction Alerts',
    description: 'Every blocked screening, as JSON.',
    file: () => `sanction-alerts-${today()}.json`,
    icon: <Bell aria-hidden />,
  },
  {
    kind: 'sanctions-export',
    title: 'Screening Export (CSV)',
    description:
      'ID, Searched Name, Match Found, Sanctioned Entity ID, Source List, Score, Tier, Is Alert, Created At.',
    file: () => `sanctions-export-${today()}.csv`,
    icon: <FileSpreadsheet aria-hidden />,
  },
  {
    kind: 'sanctions-data',
    title: 'Sanctions Data',
    description: 'The lists your plan covers: versions, entity counts and checksums, as JSON.',
    file: () => `sanctions-data-${today()}.json`,
    icon: <Database aria-hidden />,
  },
];

/** /dashboard/screening/downloads: four reports and three figures. */
export function DownloadsPage() {
  usePageTitle('Downloads & Reports');
  const logs = useGetLogsQuery({ limit: 1 });
  const alerts = useGetAlertsQuery({ limit: 1 });
  const lists = useGetListsQuery();
  const [download, busy] = useServerDownload();
  const figure = (value: number | undefined) => (value === undefined ? '—' : countFormat.format(value));

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Downloads & Reports"
        description="Reports are produced by the server, so a large range downloads as fast as a small one."
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <StatCard
          label="Screenings logged"
          value={figure(logs.data?.counts.all)}
          icon={<FileText aria-hidden />}
          tone="brand"
        />
        <StatCard label="Alerts" value={figure(alerts.data?.total)} icon={<Bell aria-hidden />} tone="destructive" />
        <StatCard
          label="Lists available"
          value={figure(lists.data?.lists.length)}
          icon={<List aria-hidden />}
          tone="success"
        />
      </div>
      <ul className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2">
        {REPORTS.map((report) => (
          <li key={report.kind} className="min-w-0">
            <Card className="h-full">
              <CardHeader className="flex-row items-start gap-3">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary [&_svg]:size-5">
                  {report.icon}
                </span>
                <div>
                  <CardTitle className="text-base">{report.title}</CardTitle>
                  <CardDescription>{report.description}</CardDescription>
                </div>
              </CardHeader>
              <CardContent>
                <p className="mb-3 font-mono text-xs break-all text-muted-foreground">{report.file()}</p>
                <Button
                  variant="outline"
                  disabled={busy}
                  aria-label={`Download ${report.file()}`}
                  onClick={() => void download(`/api/client/reports/${report.kind}`, report.file())}
                >
                  {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />} Download
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
