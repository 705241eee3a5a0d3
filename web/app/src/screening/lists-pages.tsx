import { FEEDS, TIER_LIMITS, TIERS, type Feed, type ListInfo, type Tier } from '@vigil/proto';
import { Badge, Button, StatCard, QueryView } from '@vigil/ui';
import { Database, Download, List, Loader2, RefreshCw, Users } from 'lucide-react';
import { useGetAccountSummaryQuery } from '../auth/auth.api.js';
import { feedLabel } from '../public/feed-labels.js';
import { usePageTitle } from '../shell/page-title.js';
import { PageHeader } from './dashboard-shell.js';
import { planOf } from './plan.js';
import { countFormat, EmptyState, formatBytes, formatDateTime, today, useServerDownload } from './parts.js';
import { useGetClientListsQuery, useGetListsQuery } from './screening.api.js';

const STATUS_TONE = { active: 'success', updating: 'warning', inactive: 'neutral' } as const;

/** /dashboard/screening/lists: the sanctions and watch lists, live from the screening service. */
export function ListsPage() {
  usePageTitle('Sanctions Lists');
  const lists = useGetListsQuery();
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Sanctions Lists"
        description="The lists Vigil screens against, with their current version."
        actions={
          <Button variant="outline" onClick={() => void lists.refetch()} disabled={lists.isFetching}>
            <RefreshCw className={lists.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
          </Button>
        }
      />
      <QueryView
        query={lists}
        errorTitle="Failed to load lists"
        isEmpty={(data) => data.lists.length === 0}
        empty={<EmptyState title="No Lists Found">No list has been loaded yet.</EmptyState>}
      >
        {(data) => (
          <div className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              <StatCard label="Total lists" value={data.lists.length} icon={<List aria-hidden />} tone="brand" />
              <StatCard
                label="Active"
                value={data.lists.filter((l) => l.status === 'active').length}
                tone="success"
                icon={<Database aria-hidden />}
              />
              <StatCard
                label="Updating"
                value={data.lists.filter((l) => l.status === 'updating').length}
                tone="warning"
                icon={<RefreshCw aria-hidden />}
              />
              {/* Spec §7 shows a fixed "1M+": the sum of the lists' own counts says what is screened. */}
              <StatCard
                label="Total entities"
                value={countFormat.format(data.lists.reduce((sum, l) => sum + l.entityCount, 0))}
                icon={<Users aria-hidden />}
              />
            </div>
            <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
              {data.lists.map((list) => (
                <ListCard key={list.source} list={list} />
              ))}
            </ul>
            <FeedCoverage lists={data.lists} />
          </div>
        )}
      </QueryView>
    </div>
  );
}

function ListCard({ list, allowed = true }: { list: ListInfo; allowed?: boolean }) {
  const [download, busy] = useServerDownload();
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-card border border-border bg-surface p-4 shadow-card">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="font-semibold break-words">{list.name}</h2>
          <p className="text-xs text-muted-foreground">
            {list.publisher} · {feedLabel(list.sourceDataset)}
          </p>
        </div>
        <Badge tone={STATUS_TONE[list.status]} className="capitalize">
          {list.status}
        </Badge>
      </div>
      <p className="line-clamp-3 text-sm text-muted-foreground">{list.description}</p>
      <dl className="grid grid-cols-2 gap-2 text-xs sm:grid-cols-4">
        <Meta label="Entities" value={countFormat.format(list.entityCount)} />
        <Meta label="Version" value={list.version === null ? '—' : `v${list.version}`} />
        <Meta label="Size" value={formatBytes(list.fileSize)} />
        <Meta label="Updated" value={formatDateTime(list.lastUpdated)} />
      </dl>
      {list.checksum && (
        <p className="truncate font-mono text-[11px] text-muted-foreground" title={list.checksum}>
          SHA-256 {list.checksum}
        </p>
      )}
      <div>
        <Button
          size="sm"
          variant="outline"
          disabled={busy || !allowed || list.version === null}
          onClick={() =>
            void download(
              `/api/client/reports/list/${encodeURIComponent(list.source)}`,
              `${list.source}-${today()}.csv`,
            )
          }
          title={allowed ? undefined : 'Not included in your plan'}
        >
          {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />} Download
        </Button>
      </div>
    </li>
  );
}

/**
 * Issue #36: the plans name feeds (PEPs, wanted persons, UK disqualified directors…) that a
 * deployment may not have loaded. Each feed, the plans that include it, and whether any list of
 * it answers here, so no one reads a plan card as coverage this deployment does not give.
 */
function FeedCoverage({ lists }: { lists: readonly ListInfo[] }) {
  const summary = useGetAccountSummaryQuery();
  const tier = summary.data?.client.tier as Tier | undefined;
  const loaded = (feed: Feed) => lists.filter((l) => l.feed === feed && l.version !== null);
  return (
    <section aria-labelledby="feed-coverage-heading" className="rounded-card border border-border bg-surface p-4">
      <h2 id="feed-coverage-heading" className="font-semibold">
        Feeds by plan
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        What each plan includes, and which feeds are loaded in this deployment. A feed that is not loaded screens
        nothing, whatever the plan says.
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full text-sm" data-testid="feed-coverage">
          <thead>
            <tr className="text-left text-xs text-muted-foreground">
              <th className="py-1 pr-3 font-medium">Feed</th>
              {TIERS.map((t) => (
                <th key={t} className="px-2 py-1 font-medium capitalize">
                  {t}
                  {t === tier ? ' (yours)' : ''}
                </th>
              ))}
              <th className="py-1 pl-3 font-medium">Loaded here</th>
            </tr>
          </thead>
          <tbody>
            {FEEDS.map((feed) => {
              const here = loaded(feed);
              return (
                <tr key={feed} data-feed={feed} data-loaded={here.length > 0} className="border-t border-border">
                  <td className="py-1.5 pr-3">{feedLabel(feed)}</td>
                  {TIERS.map((t) => (
                    <td key={t} className="px-2 py-1.5">
                      {TIER_LIMITS[t].feeds.includes(feed) ? 'Included' : '—'}
                    </td>
                  ))}
                  <td className="py-1.5 pl-3">
                    {here.length > 0 ? here.map((l) => l.name).join(', ') : 'Not loaded in this deployment'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

/** /dashboard/screening/datasets: the datasets of the client's plan, and its ingested lists. */
export function DatasetsPage() {
  usePageTitle('My Datasets');
  const lists = useGetListsQuery();
  const clientLists = useGetClientListsQuery();
  const summary = useGetAccountSummaryQuery();
  const feeds = new Set(planOf(summary.data?.client.tier ?? '')?.feeds ?? []);
  const [download, busy] = useServerDownload();
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="My Datasets"
        description="The datasets your plan screens against, and the lists you uploaded."
      />
      <section aria-labelledby="available-heading" className="flex flex-col gap-3">
        <h2 id="available-heading" className="text-lg font-semibold">
          Available Datasets
        </h2>
        <QueryView
          query={lists}
          errorTitle="Failed to fetch dataset information"
          isEmpty={(data) => data.lists.filter((l) => feeds.has(l.feed)).length === 0}
          empty={<EmptyState title="No datasets">Your plan's datasets have not been loaded yet.</EmptyState>}
        >
          {(data) => (
            <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
              {data.lists
                .filter((l) => feeds.has(l.feed))
                .map((list) => (
                  <ListCard key={list.source} list={list} />
                ))}
            </ul>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="ingested-heading" className="mt-8 flex flex-col gap-3">
        <h2 id="ingested-heading" className="text-lg font-semibold">
          Ingested Monitoring Lists
        </h2>
        <QueryView
          query={clientLists}
          errorTitle="Could not fetch monitoring lists"
          isEmpty={(data) => data.lists.length === 0}
          empty={<EmptyState title="No ingested lists">Lists you upload for monitoring appear here.</EmptyState>}
        >
          {(data) => (
            <ul className="flex flex-col gap-2">
              {data.lists.map((list) => (
                <li
                  key={list.id}
                  className="flex flex-wrap items-center gap-3 rounded-card border border-border bg-surface p-4"
                >
                  <span className="min-w-0 flex-1 font-medium">{list.file_name}</span>
                  <Badge tone="success">ingested</Badge>
                  <span className="text-sm text-muted-foreground">
                    {countFormat.format(list.count)} records · {formatDateTime(list.created_at)}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={busy}
                    onClick={() => void download(`/api/client/lists/download/${list.id}`, list.file_name)}
                  >
                    <Download aria-hidden /> Download
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
    </div>
  );
}
