import type { AdminList, AdminListsResponse } from '@vigil/proto';
import { Badge, Button, Dialog, DialogContent, DialogDescription, DialogTitle, QueryView } from '@vigil/ui';
import { History, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { notifyFailure, notifySuccess } from '../shell/notify.js';
import { EmptyState, formatCount, formatDateTime, Panel, Section } from '../shell/parts.js';
import { useGetAdminListsQuery, useGetListVersionsQuery, useRefreshListMutation } from './lists.api.js';
import { describeOutcome } from './refresh-outcome.js';

const ENGINE_HINTS: Record<AdminListsResponse['index']['engine'], string> = {
  'in-process': 'Each screening replica holds the lists in memory',
  opensearch: 'One OpenSearch index per list version, shared by every screening replica',
  elasticsearch: 'One Elasticsearch index per list version, shared by every screening replica',
};

/** Why the index may trail the stored version: it is being built, or the list has none yet. */
function indexedTitle(list: AdminList): string {
  if (list.indexedVersion === null) return list.version === null ? 'No version yet' : 'Not loaded into the index yet';
  if (list.indexedVersion !== list.version)
    return `The index serves ${list.indexedVersion} while ${list.version} is built`;
  return 'The index serves the current version';
}

/** Every list source: version, size, checksum, last success, next refresh and last failure; refresh and history. */
export function ListsSection() {
  const lists = useGetAdminListsQuery();
  const [refresh, refreshing] = useRefreshListMutation();
  const [history, setHistory] = useState<AdminList | null>(null);

  async function onRefresh(source: string) {
    try {
      const reply = await refresh(source).unwrap();
      const outcome = reply.results.find((result) => result.source === source) ?? reply.results[0];
      if (!outcome) return;
      const { title, description, failed } = describeOutcome(outcome);
      if (failed) notifyFailure(title, undefined, description);
      else notifySuccess(title, description);
    } catch (error) {
      notifyFailure('Refresh failed', error);
    }
  }

  return (
    <Section
      id="lists"
      title="Sanctions Lists"
      description="Every source the screening service loads, and how fresh it is."
    >
      <Panel className="p-4">
        <QueryView
          query={lists}
          errorTitle="Failed to load lists"
          loadingLabel="Loading lists..."
          isEmpty={(data) => data.lists.length === 0}
          empty={<EmptyState title="No list sources are configured" />}
        >
          {(data) => (
            <div className="overflow-x-auto">
              <p className="mb-3 text-sm text-muted-foreground">
                Screening index:{' '}
                <Badge tone="neutral" data-testid="index-engine" title={ENGINE_HINTS[data.index.engine]}>
                  {data.index.engine}
                </Badge>
              </p>
              <table className="w-full min-w-[52rem] text-left text-sm" data-testid="admin-lists">
                <thead className="text-xs text-muted-foreground">
                  <tr>
                    {[
                      'Source',
                      'Version',
                      'Indexed',
                      'Entities',
                      'Checksum',
                      'Last success',
                      'Next refresh',
                      'Last failure',
                      '',
                    ].map((label) => (
                      <th
                        key={label}
                        scope="col"
                        className="border-b border-border px-2 py-2 font-medium whitespace-nowrap"
                      >
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.lists.map((list) => (
                    <tr
                      key={list.source}
                      data-source={list.source}
                      className="border-b border-border align-top last:border-0"
                    >
                      <td className="min-w-[11rem] px-2 py-2">
                        <p className="font-medium">{list.name}</p>
                        <p className="font-mono text-xs text-muted-foreground">{list.source}</p>
                      </td>
                      <td className="px-2 py-2 tabular-nums" data-testid="list-version">
                        {list.version ?? '—'}
                      </td>
                      <td
                        className="px-2 py-2 tabular-nums"
                        data-testid="list-indexed-version"
                        title={indexedTitle(list)}
                      >
                        {list.indexedVersion ?? '—'}
                      </td>
                      <td className="px-2 py-2 tabular-nums">{formatCount(list.entityCount)}</td>
                      <td className="px-2 py-2 font-mono text-xs" title={list.checksum ?? undefined}>
                        {list.checksum ? `${list.checksum.slice(0, 8)}…` : '—'}
                      </td>
                      <td className="min-w-[6.5rem] px-2 py-2">{formatDateTime(list.lastSuccessAt)}</td>
                      <td className="min-w-[6.5rem] px-2 py-2">{formatDateTime(list.nextRefreshAt)}</td>
                      <td className="px-2 py-2">
                        {list.lastFailure ? (
                          <span className="flex flex-col gap-0.5">
                            <Badge tone="destructive" className="self-start">
                              {list.lastFailure.stage} · {formatDateTime(list.lastFailure.at)}
                            </Badge>
                            <span
                              className="max-w-[16rem] truncate text-xs text-destructive-foreground"
                              title={list.lastFailure.message}
                            >
                              {list.lastFailure.message}
                            </span>
                          </span>
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        )}
                      </td>
                      <td className="px-2 py-2">
                        <div className="flex flex-col items-stretch gap-1">
                          <Button
                            size="sm"
                            variant="ghost"
                            onClick={() => setHistory(list)}
                            aria-label={`Version history of ${list.name}`}
                          >
                            <History aria-hidden /> History
                          </Button>
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={refreshing.isLoading && refreshing.originalArgs === list.source}
                            onClick={() => void onRefresh(list.source)}
                            aria-label={`Refresh ${list.name} now`}
                          >
                            <RefreshCw
                              aria-hidden
                              className={
                                refreshing.isLoading && refreshing.originalArgs === list.source
                                  ? 'animate-spin'
                                  : undefined
                              }
                            />
                            Refresh now
                          </Button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryView>
      </Panel>
      <Dialog open={history !== null} onOpenChange={(open) => !open && setHistory(null)}>
        <DialogContent className="max-w-3xl">
          <DialogTitle>Version history</DialogTitle>
          <DialogDescription>{history?.name}</DialogDescription>
          {history && <VersionHistory source={history.source} />}
        </DialogContent>
      </Dialog>
    </Section>
  );
}

function VersionHistory({ source }: { source: string }) {
  const versions = useGetListVersionsQuery(source, { refetchOnMountOrArgChange: true });
  return (
    <div className="mt-4 max-h-[60vh] overflow-auto">
      <QueryView
        query={versions}
        errorTitle="Failed to load the version history"
        isEmpty={(data) => data.versions.length === 0}
        empty={<EmptyState title="No version stored yet" />}
      >
        {(data) => (
          <table className="w-full min-w-[36rem] text-left text-sm" data-testid="list-versions">
            <thead className="text-xs text-muted-foreground">
              <tr>
                {['Version', 'Fetched', 'Entities', 'Added', 'Changed', 'Removed', 'Trigger'].map((label) => (
                  <th key={label} scope="col" className="border-b border-border px-2 py-2 font-medium">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.versions.map((version) => (
                <tr
                  key={version.versionId}
                  className="border-b border-border last:border-0"
                  data-version={version.versionId}
                >
                  <td className="px-2 py-1.5 tabular-nums">
                    {version.versionId} {version.current && <Badge tone="success">current</Badge>}
                  </td>
                  <td className="px-2 py-1.5 whitespace-nowrap">{formatDateTime(version.fetchedAt)}</td>
                  <td className="px-2 py-1.5 tabular-nums">{formatCount(version.entityCount)}</td>
                  <td className="px-2 py-1.5 tabular-nums text-success-foreground">+{version.added}</td>
                  <td className="px-2 py-1.5 tabular-nums">{version.changed}</td>
                  <td className="px-2 py-1.5 tabular-nums text-destructive-foreground">−{version.removed}</td>
                  <td className="px-2 py-1.5">{version.trigger}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </div>
  );
}
