import { QueryView } from '@vigil/ui';
import { REQUIRED_FIELDS_MESSAGE, TIERS, type Client, type ClientWithKey, type Tier } from '@vigil/proto';
import {
  Badge,
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  Spinner,
  isApiError,
} from '@vigil/ui';
import { Copy, KeyRound, Plus, RefreshCw, Search, ShieldOff, SlidersHorizontal, Trash2 } from 'lucide-react';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { notifyFailure, notifySuccess } from '../shell/notify.js';
import { EmptyState, formatCount, formatDateTime, Panel, Section, Select } from '../shell/parts.js';
import { SubscriptionBadge, TierBadge, tierLabel } from './client-badges.js';
import { matchesClient } from './match-client.js';
import {
  useCreateClientMutation,
  useDeleteClientMutation,
  useFindClientByKeyMutation,
  useKeyStatusQuery,
  useListClientsQuery,
  useRegenerateKeyMutation,
  useRevokeKeyMutation,
} from './clients.api.js';

// Regenerating kills the client's production key at once, so it is confirmed like Revoke and Delete.
type Confirm = { kind: 'delete' | 'revoke' | 'regenerate'; client: Client } | null;

/** Spec §2 "Client Management" and §7 "Client administration". */
export function ClientsSection({ onEditThresholds }: { onEditThresholds: (clientId: string) => void }) {
  const clients = useListClientsQuery();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [shownKey, setShownKey] = useState<{ client: ClientWithKey; reason: 'created' | 'regenerated' } | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [statusOf, setStatusOf] = useState<Client | null>(null);
  const [regenerate, regenerating] = useRegenerateKeyMutation();
  const [revoke] = useRevokeKeyMutation();
  const [remove] = useDeleteClientMutation();

  async function onRegenerate(client: Client) {
    try {
      const updated = await regenerate(client.id).unwrap();
      notifySuccess('API key regenerated successfully');
      setShownKey({ client: updated, reason: 'regenerated' });
    } catch (error) {
      notifyFailure('Failed to regenerate API key', error);
    }
  }

  async function onConfirmed(action: NonNullable<Confirm>) {
    setConfirm(null);
    if (action.kind === 'regenerate') {
      await onRegenerate(action.client);
      return;
    }
    if (action.kind === 'delete') {
      try {
        await remove(action.client.id).unwrap();
        notifySuccess('Client deleted successfully');
      } catch (error) {
        notifyFailure('Failed to delete client', error);
      }
      return;
    }
    try {
      await revoke(action.client.id).unwrap();
      notifySuccess('API key revoked', `${action.client.client_name} cannot use the API until a new key is generated.`);
    } catch (error) {
      // Spec §8: a failed revoke uses the regenerate failure's words.
      notifyFailure('Failed to regenerate API key', error);
    }
  }

  return (
    <Section
      id="clients"
      title="Client Management"
      description="Every client organisation, its plan, usage and API key."
      actions={
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden /> Create Client
        </Button>
      }
    >
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_18rem] xl:items-start">
        <Panel className="min-w-0 p-4">
          <div className="relative mb-3">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              type="search"
              aria-label="Search clients"
              placeholder="Search clients by name, id, tier or status"
              className="pl-9"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          <QueryView
            query={clients}
            errorTitle="Failed to fetch clients"
            loadingLabel="Loading clients..."
            isEmpty={(data) => data.clients.length === 0}
            empty={<EmptyState title="No clients yet">Create the first one with Create Client.</EmptyState>}
          >
            {(data) => (
              <ClientList
                clients={data.clients.filter((client) => matchesClient(client, search))}
                busyId={regenerating.isLoading ? regenerating.originalArgs : undefined}
                onStatus={setStatusOf}
                onRegenerate={(client) => setConfirm({ kind: 'regenerate', client })}
                onRevoke={(client) => setConfirm({ kind: 'revoke', client })}
                onDelete={(client) => setConfirm({ kind: 'delete', client })}
                onThresholds={(client) => onEditThresholds(client.id)}
              />
            )}
          </QueryView>
        </Panel>
        <LookUpByKey />
      </div>

      <CreateClientDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(client) => {
          setCreating(false);
          setShownKey({ client, reason: 'created' });
        }}
      />
      <KeyShownOnce shown={shownKey} onClose={() => setShownKey(null)} />
      <ConfirmDialog
        confirm={confirm}
        onCancel={() => setConfirm(null)}
        onConfirm={(action) => void onConfirmed(action)}
      />
      <KeyStatusDialog client={statusOf} onClose={() => setStatusOf(null)} />
    </Section>
  );
}

function ClientList({
  clients,
  busyId,
  onStatus,
  onRegenerate,
  onRevoke,
  onDelete,
  onThresholds,
}: {
  clients: Client[];
  busyId: string | undefined;
  onStatus: (client: Client) => void;
  onRegenerate: (client: Client) => void;
  onRevoke: (client: Client) => void;
  onDelete: (client: Client) => void;
  onThresholds: (client: Client) => void;
}) {
  if (clients.length === 0) return <EmptyState title="No clients match your search" />;
  return (
    // Spec §2: the client list scrolls at 384px.
    <ul
      className="max-h-96 divide-y divide-border overflow-y-auto rounded-lg border border-border"
      data-testid="client-list"
    >
      {clients.map((client) => (
        <li key={client.id} className="flex flex-col gap-2 p-3" data-client-id={client.id}>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <p className="max-w-full truncate font-medium">{client.client_name}</p>
              <TierBadge tier={client.tier} />
              <SubscriptionBadge status={client.subscription_status} />
              {client.threshold_config && <Badge tone="brand">Custom Thresholds</Badge>}
            </div>
            <p className="mt-1 text-xs text-muted-foreground">
              {formatCount(client.usage_month)} / {formatCount(client.quota_month)} calls this month · key{' '}
              {client.api_key_prefix ? (
                <code>{client.api_key_prefix}…</code>
              ) : (
                <span className="text-destructive-foreground">revoked</span>
              )}{' '}
              · since {formatDateTime(client.created_at)}
            </p>
          </div>
          <div className="-ml-2 flex flex-wrap gap-1">
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onStatus(client)}
              aria-label={`Key status of ${client.client_name}`}
            >
              <KeyRound aria-hidden /> Key Status
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={busyId === client.id}
              onClick={() => onRegenerate(client)}
              aria-label={`Regenerate the API key of ${client.client_name}`}
            >
              <RefreshCw aria-hidden /> Regenerate
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={client.api_key_prefix === null}
              onClick={() => onRevoke(client)}
              aria-label={`Revoke the API key of ${client.client_name}`}
            >
              <ShieldOff aria-hidden /> Revoke
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onThresholds(client)}
              aria-label={`Thresholds of ${client.client_name}`}
            >
              <SlidersHorizontal aria-hidden /> Thresholds
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-destructive-foreground"
              onClick={() => onDelete(client)}
              aria-label={`Delete ${client.client_name}`}
            >
              <Trash2 aria-hidden /> Delete
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function CreateClientDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (client: ClientWithKey) => void;
}) {
  const [name, setName] = useState('');
  const [tier, setTier] = useState<Tier | ''>('');
  const [create, { isLoading }] = useCreateClientMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec §5: both fields are required, checked before anything is sent.
    if (name.trim() === '' || tier === '') {
      notifyFailure('Validation Error', undefined, REQUIRED_FIELDS_MESSAGE);
      return;
    }
    try {
      const client = await create({ clientName: name.trim(), tier }).unwrap();
      setName('');
      setTier('');
      onCreated(client);
    } catch (error) {
      // Spec §8: the server's words when it answered; a request that never got an answer is an exception.
      if (isApiError(error) && error.status === 0) {
        notifyFailure('Failed to Create Client', undefined, `Failed to create client: ${error.message}`);
      } else {
        notifyFailure('Failed to Create Client', error, 'An error occurred while creating the client');
      }
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Create Client</DialogTitle>
        <DialogDescription>The new client's API key is shown once, right after it is created.</DialogDescription>
        <form
          className="mt-5 flex flex-col gap-4"
          onSubmit={(event) => void submit(event)}
          noValidate
          aria-label="Create client"
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor="client-name">Client name</Label>
            <Input id="client-name" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="client-tier">Tier</Label>
            <Select id="client-tier" value={tier} onChange={(event) => setTier(event.target.value as Tier | '')}>
              <option value="" disabled>
                Choose a tier
              </option>
              {TIERS.map((value) => (
                <option key={value} value={value}>
                  {tierLabel(value)}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? 'Creating…' : 'Create Client'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}

async function copyKey(key: string) {
  try {
    await navigator.clipboard.writeText(key);
    notifySuccess('API Key Copied');
  } catch {
    notifyFailure('Copy Failed', undefined, 'Select the key and copy it by hand.');
  }
}

/** The only time a key is readable: right after it was made. Closing the dialog forgets it. */
function KeyShownOnce({
  shown,
  onClose,
}: {
  shown: { client: ClientWithKey; reason: 'created' | 'regenerated' } | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogTitle>{shown?.reason === 'regenerated' ? 'New API key' : 'Client created'}</DialogTitle>
        <DialogDescription>
          Copy the API key of {shown?.client.client_name} now: it is not shown again.
          {shown?.reason === 'regenerated' && ' The old key no longer works.'}
        </DialogDescription>
        {shown && (
          <div className="mt-5 flex flex-col gap-3">
            <code
              className="block rounded-lg bg-muted px-3 py-2 font-mono text-xs break-all select-all"
              data-testid="shown-api-key"
            >
              {shown.client.api_key}
            </code>
            <div className="flex gap-2">
              <Button size="sm" onClick={() => void copyKey(shown.client.api_key)}>
                <Copy aria-hidden /> Copy
              </Button>
              <Button size="sm" variant="outline" onClick={onClose}>
                Done
              </Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ConfirmDialog({
  confirm,
  onCancel,
  onConfirm,
}: {
  confirm: Confirm;
  onCancel: () => void;
  onConfirm: (action: NonNullable<Confirm>) => void;
}) {
  const name = confirm?.client.client_name ?? '';
  const copy: Record<NonNullable<Confirm>['kind'], { title: string; body: ReactNode; action: string }> = {
    delete: {
      title: 'Delete client?',
      body: <>This permanently deletes {name} and its API key. This cannot be undone.</>,
      action: 'Delete',
    },
    regenerate: {
      title: 'Regenerate API key?',
      body: (
        <>
          {name}&apos;s current key stops working at once: every integration using it is refused until it is given the
          new key, which is shown once.
        </>
      ),
      action: 'Regenerate Key',
    },
    revoke: {
      title: 'Revoke API key?',
      body: <>{name} cannot use the API until a new key is generated.</>,
      action: 'Revoke Key',
    },
  };
  const text = confirm ? copy[confirm.kind] : null;
  return (
    <Dialog open={confirm !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent role="alertdialog">
        <DialogTitle>{text?.title}</DialogTitle>
        <DialogDescription>{text?.body}</DialogDescription>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => confirm && onConfirm(confirm)}>
            {text?.action}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function KeyStatusDialog({ client, onClose }: { client: Client | null; onClose: () => void }) {
  return (
    <Dialog open={client !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>API key status</DialogTitle>
        <DialogDescription>{client?.client_name}</DialogDescription>
        {client && <KeyStatusBody clientId={client.id} />}
      </DialogContent>
    </Dialog>
  );
}

function KeyStatusBody({ clientId }: { clientId: string }) {
  const status = useKeyStatusQuery(clientId, { refetchOnMountOrArgChange: true });
  return (
    <div className="mt-4">
      <QueryView query={status} errorTitle="Failed to load the key status">
        {(data) => (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="key-status">
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <Badge tone={data.status === 'active' ? 'success' : 'destructive'} data-key-status={data.status}>
                {data.status}
              </Badge>
            </dd>
            <dt className="text-muted-foreground">Prefix</dt>
            <dd>{data.prefix ? <code>{data.prefix}…</code> : '—'}</dd>
            <dt className="text-muted-foreground">Created</dt>
            <dd>{formatDateTime(data.created_at)}</dd>
            <dt className="text-muted-foreground">Revoked</dt>
            <dd>{formatDateTime(data.revoked_at)}</dd>
          </dl>
        )}
      </QueryView>
    </div>
  );
}

/** Spec §6: admins can look a client up by its API key. */
function LookUpByKey() {
  const [key, setKey] = useState('');
  const [find, { data, isLoading, reset }] = useFindClientByKeyMutation();
  const found = useMemo(() => data ?? null, [data]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (key.trim() === '') return;
    reset();
    try {
      await find(key).unwrap();
    } catch (error) {
      if (isApiError(error) && error.status === 404) notifyFailure('Client not found with this API key');
      else notifyFailure('Error searching for client', error);
    }
  }

  return (
    <Panel className="p-4">
      <h3 className="text-sm font-semibold">Look up by API key</h3>
      <form
        className="mt-3 flex flex-col gap-2"
        onSubmit={(event) => void submit(event)}
        aria-label="Look up a client by API key"
      >
        <Label htmlFor="lookup-key" className="sr-only">
          API key
        </Label>
        <Input
          id="lookup-key"
          placeholder="64-character API key"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          autoComplete="off"
          className="font-mono text-xs"
        />
        <Button type="submit" size="sm" variant="outline" disabled={key.trim() === '' || isLoading}>
          <Search aria-hidden /> {isLoading ? 'Searching…' : 'Search'}
        </Button>
      </form>
      {isLoading && <Spinner label="Searching..." className="py-4" />}
      {found && (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm" data-testid="lookup-result">
          <dt className="text-muted-foreground">Client</dt>
          <dd className="font-medium">{found.client_name}</dd>
          <dt className="text-muted-foreground">Tier</dt>
          <dd>
            <TierBadge tier={found.tier} />
          </dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            <SubscriptionBadge status={found.subscription_status} />
          </dd>
          <dt className="text-muted-foreground">Usage</dt>
          <dd>
            {formatCount(found.usage_month)} / {formatCount(found.quota_month)}
          </dd>
        </dl>
      )}
    </Panel>
  );
}
