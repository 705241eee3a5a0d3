import { QueryView } from '@vigil/ui';
import { type ClientList, type ClientListEntry, type EntryScreeningStatus } from '@vigil/proto';
import {
  Badge,
  Button,
  cn,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  StatGrid,
  toast,
} from '@vigil/ui';
import {
  CircleCheck,
  Download,
  Eye,
  FileUp,
  Loader2,
  Search,
  ShieldAlert,
  ShieldQuestion,
  Trash2,
  Upload,
} from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useDebounced } from '../shell/use-debounced.js';
import { usePageTitle } from '../shell/page-title.js';
import { uploadProblem } from './client-list-upload.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { PageHeader } from './dashboard-shell.js';
import {
  useDeleteClientListMutation,
  useGetClientListEntriesQuery,
  useUploadClientListMutation,
} from './monitoring.api.js';
import { countFormat, EmptyState, formatDateTime, useServerDownload } from './parts.js';
import { useGetClientListsQuery } from './screening.api.js';

const PENDING_POLL_MS = 2_000;

const ENTRY_TONE: Record<EntryScreeningStatus, 'destructive' | 'warning' | 'success' | 'neutral'> = {
  sanctioned: 'destructive',
  review: 'warning',
  clear: 'success',
  unknown: 'neutral',
};

/**
 * /dashboard/screening/client-lists (spec §2 "Client Sanctions Lists"): the CSV upload dialog,
 * a search box, the sanctioned / review / clear counters, list cards with View and Delete, and
 * the entity details dialog. Every entry is screened on upload and then monitored.
 */
export function ClientListsPage() {
  usePageTitle('Client Lists');
  const lists = useGetClientListsQuery();
  // Entries are screened in the background after the upload answers: while any is still
  // unknown, ask again, so the counters fill in without a reload.
  const pending = lists.data?.lists.some((l) => l.counts.unknown > 0) ?? false;
  useGetClientListsQuery(undefined, { skip: !pending, pollingInterval: PENDING_POLL_MS });
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<ClientList | null>(null);
  const [deleting, setDeleting] = useState<ClientList | null>(null);
  const [search, setSearch] = useState('');
  const [remove, removal] = useDeleteClientListMutation();
  const [download, downloading] = useServerDownload();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      toast({ title: 'List deleted', description: deleting.name });
    } catch {
      toast({ title: 'Delete failed', variant: 'destructive' });
    }
    setDeleting(null);
  };

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Client Lists"
        description="Your own customer lists: every entry is screened on upload and monitored from then on."
        actions={
          <Button onClick={() => setUploading(true)}>
            <Upload aria-hidden /> Upload CSV
          </Button>
        }
      />
      <QueryView
        query={lists}
        errorTitle="Failed to load client lists"
        isEmpty={(data) => data.lists.length === 0}
        empty={
          <EmptyState title="No client lists yet" icon={<Upload aria-hidden />}>
            Upload a CSV with a name column (email and aliases optional) to screen and monitor your customers.
            <div className="mt-3">
              <Button size="sm" onClick={() => setUploading(true)}>
                <Upload aria-hidden /> Upload CSV
              </Button>
            </div>
          </EmptyState>
        }
      >
        {(data) => {
          const totals = data.lists.reduce(
            (sum, l) => ({
              sanctioned: sum.sanctioned + l.counts.sanctioned,
              review: sum.review + l.counts.review,
              clear: sum.clear + l.counts.clear,
            }),
            { sanctioned: 0, review: 0, clear: 0 },
          );
          const needle = search.trim().toLowerCase();
          const shown = needle
            ? data.lists.filter((l) =>
                [l.name, l.file_name, l.description ?? ''].some((v) => v.toLowerCase().includes(needle)),
              )
            : data.lists;
          return (
            <div className="flex flex-col gap-4">
              <StatGrid
                className="grid-cols-1 sm:grid-cols-3"
                stats={[
                  { label: 'Sanctioned', count: totals.sanctioned, icon: ShieldAlert, tone: 'destructive' },
                  { label: 'Review', count: totals.review, icon: ShieldQuestion, tone: 'warning' },
                  { label: 'Clear', count: totals.clear, icon: CircleCheck, tone: 'success' },
                ]}
              />
              <SearchBox label="Search client lists" placeholder="Search lists" value={search} onChange={setSearch} />
              <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
                {shown.map((list) => (
                  <li
                    key={list.id}
                    className="flex min-w-0 flex-col gap-3 rounded-card border border-border bg-surface p-4 shadow-card"
                    data-testid="client-list"
                  >
                    <div className="min-w-0">
                      <h2 className="font-semibold break-words">{list.name}</h2>
                      <p className="text-sm break-words text-muted-foreground">
                        {list.file_name} · {countFormat.format(list.count)} entries · {formatDateTime(list.created_at)}
                      </p>
                      {list.description && <p className="mt-1 text-sm break-words">{list.description}</p>}
                    </div>
                    <div className="flex flex-wrap gap-2 text-xs" data-testid="list-counts">
                      <Badge tone="destructive">{list.counts.sanctioned} sanctioned</Badge>
                      <Badge tone="warning">{list.counts.review} review</Badge>
                      <Badge tone="success">{list.counts.clear} clear</Badge>
                      {list.counts.unknown > 0 && <Badge tone="neutral">{list.counts.unknown} pending</Badge>}
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button size="sm" variant="outline" onClick={() => setViewing(list)}>
                        <Eye aria-hidden /> View
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={downloading}
                        onClick={() => void download(`/api/client/lists/download/${list.id}`, list.file_name)}
                      >
                        <Download aria-hidden /> Download
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setDeleting(list)}>
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          );
        }}
      </QueryView>
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
      {viewing && <ListEntriesDialog list={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this list?"
        confirmLabel="Delete"
        busy={removal.isLoading}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      >
        {`${deleting?.name ?? ''} and its ${deleting?.count ?? 0} entries will be deleted and no longer monitored.`}
      </ConfirmDialog>
    </div>
  );
}

function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [nameTyped, setNameTyped] = useState(false);
  const [description, setDescription] = useState('');
  const [upload, state] = useUploadClientListMutation();
  const close = () => {
    setFile(null);
    setName('');
    setNameTyped(false);
    setDescription('');
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = uploadProblem(file, name);
    if (problem || !file) {
      toast({ ...(problem ?? { title: 'Missing information' }), variant: 'destructive' });
      return;
    }
    try {
      const list = await upload({
        file,
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      }).unwrap();
      toast({
        title: 'Upload successful',
        description: `${countFormat.format(list.count)} entries uploaded and screened.`,
      });
      close();
    } catch {
      toast({
        title: 'Upload failed',
        description: 'Failed to upload the CSV file. Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-w-lg">
        <DialogTitle className="text-lg font-semibold">Upload Client List</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          A CSV of at most 10MB with a name column; email and aliases (separated by ;) are optional.
        </DialogDescription>
        <form onSubmit={(e) => void submit(e)} className="mt-4 flex flex-col gap-4" noValidate>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="list-file">CSV file</Label>
            <input
              id="list-file"
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                setFile(chosen);
                // §5: the name defaults to the file name without .csv, until the user writes one.
                if (chosen && !nameTyped) setName(chosen.name.replace(/\.csv$/i, ''));
              }}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-surface file:px-3 file:py-1.5 file:text-sm"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="list-name">List name</Label>
            <Input
              id="list-name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setNameTyped(e.target.value !== '');
              }}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="list-description">Description (optional)</Label>
            <Input id="list-description" value={description} onChange={(e) => setDescription(e.target.value)} />
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={state.isLoading}>
              {state.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <FileUp aria-hidden />} Upload
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A list's entries with their screening status; search matches name, email or any alias (§5). */
function ListEntriesDialog({ list, onClose }: { list: ClientList; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search.trim(), 300);
  const args = { id: list.id, ...(debounced ? { search: debounced } : {}) };
  const entries = useGetClientListEntriesQuery(args);
  const pending = entries.data?.entries.some((e) => e.screening_status === 'unknown') ?? false;
  useGetClientListEntriesQuery(args, { skip: !pending, pollingInterval: PENDING_POLL_MS });
  const [entry, setEntry] = useState<ClientListEntry | null>(null);
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[85vh] max-w-3xl overflow-y-auto">
        <DialogTitle className="text-lg font-semibold break-words">{list.name}</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          {countFormat.format(list.count)} entries, screened on upload and monitored.
        </DialogDescription>
        <SearchBox
          label="Search entries"
          placeholder="Search by name, email or alias"
          value={search}
          onChange={setSearch}
          className="mt-4"
        />
        <div className="mt-3">
          <QueryView
            query={entries}
            errorTitle="Failed to load client lists"
            isEmpty={(data) => data.entries.length === 0}
            empty={<EmptyState title="No matching entries" />}
          >
            {(data) => (
              <ul className="flex flex-col gap-2" aria-label="List entries">
                {data.entries.map((e) => (
                  <li key={e.id} data-testid="list-entry" data-status={e.screening_status}>
                    <button
                      type="button"
                      onClick={() => setEntry(e)}
                      className="flex w-full cursor-pointer flex-wrap items-center gap-2 rounded-lg border border-border p-3 text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      <span className="min-w-0 flex-1 font-medium break-words">{e.name}</span>
                      <Badge tone={ENTRY_TONE[e.screening_status]} className="capitalize">
                        {e.screening_status}
                      </Badge>
                      <span className="text-xs text-muted-foreground">
                        {e.screening_score === null ? '—' : e.screening_score.toFixed(3)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </div>
        {entry && <EntryDetailsDialog entry={entry} onClose={() => setEntry(null)} />}
      </DialogContent>
    </Dialog>
  );
}

/** The entity details dialog: one entry, its screening outcome (score with 3 decimals, §9). */
function EntryDetailsDialog({ entry, onClose }: { entry: ClientListEntry; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogTitle className="text-lg font-semibold break-words">{entry.name}</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">Entity details</DialogDescription>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            <Badge tone={ENTRY_TONE[entry.screening_status]} className="capitalize">
              {entry.screening_status}
            </Badge>
          </dd>
          <dt className="text-muted-foreground">Score</dt>
          <dd>{entry.screening_score === null ? '—' : entry.screening_score.toFixed(3)}</dd>
          <dt className="text-muted-foreground">Source</dt>
          <dd className="break-words">{entry.screening_source ?? '—'}</dd>
          <dt className="text-muted-foreground">Details</dt>
          <dd className="break-words">{entry.screening_details ?? '—'}</dd>
          <dt className="text-muted-foreground">Email</dt>
          <dd className="break-words">{entry.email ?? '—'}</dd>
          <dt className="text-muted-foreground">Aliases</dt>
          <dd className="break-words">{entry.aliases.length > 0 ? entry.aliases.join(', ') : '—'}</dd>
          <dt className="text-muted-foreground">Added</dt>
          <dd>{formatDateTime(entry.added_at)}</dd>
        </dl>
      </DialogContent>
    </Dialog>
  );
}

/** A search field with its magnifier, as the lists and the entries dialog both filter. */
function SearchBox({
  label,
  placeholder,
  value,
  onChange,
  className,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
      <Input
        aria-label={label}
        placeholder={placeholder}
        className="pl-9"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
