import { QueryView } from '@vigil/ui';
import {
  CHECK_FREQUENCIES,
  type AlertSeverity,
  type CheckFrequency,
  type MonitoredEntity,
  type MonitoringAlert,
  type MonitoringPush,
  type MonitoringSettings,
} from '@vigil/proto';
import {
  Badge,
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  StatGrid,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
} from '@vigil/ui';
import {
  BellRing,
  CheckCheck,
  Database,
  Loader2,
  Pause,
  Play,
  Plus,
  Radar,
  RefreshCw,
  Search,
  Square,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';
import { usePageTitle } from '../shell/page-title.js';
import { ConfirmDialog, SelectField } from './confirm-dialog.js';
import { PageHeader } from './dashboard-shell.js';
import { useLiveUpdates, type LiveState } from './live-updates.js';
import {
  useAcknowledgeMonitoringAlertMutation,
  useAddMonitoredEntityMutation,
  useBulkAddMonitoredEntitiesMutation,
  useBulkRemoveMonitoredEntitiesMutation,
  useCheckMonitoredEntityMutation,
  useDeleteMonitoredEntityMutation,
  useGetMonitoredEntitiesQuery,
  useGetMonitoringAlertsQuery,
  useGetMonitoringSettingsQuery,
  useGetMonitoringStatsQuery,
  useSetMonitoringStatusMutation,
  useUpdateMonitoringSettingsMutation,
} from './monitoring.api.js';
import { countFormat, EmptyState, formatDateTime } from './parts.js';

const SEVERITY_TONE: Record<AlertSeverity, 'neutral' | 'warning' | 'destructive'> = {
  low: 'neutral',
  medium: 'warning',
  high: 'destructive',
  critical: 'destructive',
};
const STATUS_TONE = { active: 'success', paused: 'warning', stopped: 'neutral' } as const;
const LIVE_LABEL: Record<LiveState, string> = {
  connecting: 'Connecting to live updates',
  live: 'Live updates on',
  unavailable: 'Live updates come with the Medium plan',
  offline: 'Live updates offline, retrying',
};

/** A pushed alert, said as it arrives; the lists themselves refresh from the push. */
function announce(push: MonitoringPush) {
  if (push.type !== 'monitoring.alert') return;
  toast({
    title: 'New monitoring alert',
    description: `${push.alert.entity_name} matches ${push.alert.matched_sanctioned_name} (${push.alert.severity}).`,
    variant: push.alert.severity === 'low' ? 'default' : 'destructive',
  });
}

/**
 * /dashboard/screening/ongoing-monitoring (spec §2 "Ongoing Monitoring"): stat cards, the tabs
 * Monitored Entities / Alerts / Settings and the Add Entity dialog. New alerts arrive over the
 * live stream and show without a reload.
 */
export function OngoingMonitoringPage() {
  usePageTitle('Ongoing Monitoring');
  const stats = useGetMonitoringStatsQuery();
  const live = useLiveUpdates(announce);
  const [tab, setTab] = useState('entities');
  const [adding, setAdding] = useState(false);
  const [bulkAdding, setBulkAdding] = useState(false);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Ongoing Monitoring"
        description="Your customers, re-screened on their schedule and whenever a list changes."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setBulkAdding(true)}>
              <Database aria-hidden /> Bulk Add
            </Button>
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden /> Add Entity
            </Button>
          </div>
        }
      />
      <p
        className="mb-4 flex items-center gap-2 text-sm text-muted-foreground"
        data-testid="live-state"
        data-state={live}
      >
        <span
          aria-hidden
          className={`size-2 rounded-full ${live === 'live' ? 'bg-success' : live === 'connecting' ? 'bg-warning' : 'bg-muted-foreground'}`}
        />
        {LIVE_LABEL[live]}
      </p>
      <QueryView query={stats} errorTitle="Failed to load monitoring data">
        {({ stats: s }) => (
          <StatGrid
            className="grid-cols-1 sm:grid-cols-2 lg:grid-cols-4"
            stats={[
              { label: 'Total monitored', count: s.total_monitored, icon: Radar, tone: 'brand' },
              { label: 'Active', count: s.active_monitored, icon: Play, tone: 'success' },
              { label: 'Overdue checks', count: s.overdue_checks, icon: RefreshCw, tone: 'warning' },
              { label: 'Unacknowledged alerts', count: s.unacknowledged_alerts, icon: BellRing, tone: 'destructive' },
            ]}
          />
        )}
      </QueryView>
      <Tabs value={tab} onValueChange={setTab} className="mt-6">
        <TabsList>
          <TabsTrigger value="entities">Monitored Entities</TabsTrigger>
          <TabsTrigger value="alerts">Alerts</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
        </TabsList>
        <TabsContent value="entities" className="mt-4">
          <EntitiesTab onAdd={() => setAdding(true)} />
        </TabsContent>
        <TabsContent value="alerts" className="mt-4">
          <AlertsTab />
        </TabsContent>
        <TabsContent value="settings" className="mt-4">
          <SettingsTab />
        </TabsContent>
      </Tabs>
      <AddEntityDialog open={adding} onClose={() => setAdding(false)} />
      <BulkAddDialog open={bulkAdding} onClose={() => setBulkAdding(false)} />
    </div>
  );
}

function EntitiesTab({ onAdd }: { onAdd: () => void }) {
  const entities = useGetMonitoredEntitiesQuery();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmRemove, setConfirmRemove] = useState<MonitoredEntity[] | null>(null);
  const [removeOne] = useDeleteMonitoredEntityMutation();
  const [removeMany, removing] = useBulkRemoveMonitoredEntitiesMutation();
  const [query, setQuery] = useState('');

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const remove = async (targets: MonitoredEntity[]) => {
    try {
      if (targets.length === 1) await removeOne(targets[0]!.id).unwrap();
      else await removeMany({ entityIds: targets.map((e) => e.id) }).unwrap();
      toast({
        title: 'Removed from monitoring',
        description: `${targets.length} entit${targets.length === 1 ? 'y' : 'ies'} removed.`,
      });
      setSelected(new Set());
    } catch {
      toast({ title: 'Failed to update entity status', variant: 'destructive' });
    }
    setConfirmRemove(null);
  };

  return (
    <QueryView
      query={entities}
      errorTitle="Failed to load monitoring data"
      isEmpty={(data) => data.entities.length === 0}
      empty={
        <EmptyState title="Nothing monitored yet" icon={<Radar aria-hidden />}>
          Add a customer to re-screen it on its schedule and whenever a list changes.
          <div className="mt-3">
            <Button size="sm" onClick={onAdd}>
              <Plus aria-hidden /> Add Entity
            </Button>
          </div>
        </EmptyState>
      }
    >
      {(data) => {
        const needle = query.trim().toLowerCase();
        const shown = needle
          ? data.entities.filter((e) =>
              [e.entity_name, e.entity_email ?? '', ...e.entity_aliases].some((v) => v.toLowerCase().includes(needle)),
            )
          : data.entities;
        const chosen = data.entities.filter((e) => selected.has(e.id));
        return (
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center gap-2">
              <div className="relative min-w-0 flex-1 basis-full sm:basis-auto">
                <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
                <Input
                  aria-label="Search monitored entities"
                  placeholder="Search by name, email or alias"
                  className="pl-9"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
              <Button variant="outline" disabled={chosen.length === 0} onClick={() => setConfirmRemove(chosen)}>
                <Trash2 aria-hidden /> Remove selected ({chosen.length})
              </Button>
            </div>
            <p className="text-sm text-muted-foreground">
              {countFormat.format(data.total)} monitored {data.total === 1 ? 'entity' : 'entities'}
            </p>
            <ul className="flex flex-col gap-2" aria-label="Monitored entities">
              {shown.map((entity) => (
                <EntityRow
                  key={entity.id}
                  entity={entity}
                  selected={selected.has(entity.id)}
                  onSelect={(on) => toggle(entity.id, on)}
                  onDelete={() => setConfirmRemove([entity])}
                />
              ))}
            </ul>
            <ConfirmDialog
              open={confirmRemove !== null}
              title="Remove from monitoring?"
              confirmLabel="Remove"
              busy={removing.isLoading}
              onCancel={() => setConfirmRemove(null)}
              onConfirm={() => confirmRemove && void remove(confirmRemove)}
            >
              {confirmRemove?.length === 1
                ? `${confirmRemove[0]!.entity_name} will no longer be re-screened. Its alerts stay in the Alerts tab.`
                : `${confirmRemove?.length ?? 0} entities will no longer be re-screened. Their alerts stay in the Alerts tab.`}
            </ConfirmDialog>
          </div>
        );
      }}
    </QueryView>
  );
}

function EntityRow({
  entity,
  selected,
  onSelect,
  onDelete,
}: {
  entity: MonitoredEntity;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onDelete: () => void;
}) {
  const [setStatus, status] = useSetMonitoringStatusMutation();
  const [check, checking] = useCheckMonitoredEntityMutation();

  const change = async (monitoring_status: MonitoredEntity['monitoring_status']) => {
    try {
      await setStatus({ id: entity.id, monitoring_status }).unwrap();
    } catch {
      toast({ title: 'Failed to update entity status', variant: 'destructive' });
    }
  };

  const runCheck = async () => {
    try {
      const result = await check(entity.id).unwrap();
      toast(
        result.alerts.length > 0
          ? {
              title: 'Manual check complete',
              description: `${result.alerts.length} new alert${result.alerts.length === 1 ? '' : 's'} for ${entity.entity_name}.`,
              variant: 'destructive',
            }
          : { title: 'Manual check complete', description: `No new match for ${entity.entity_name}.` },
      );
    } catch {
      toast({ title: 'Failed to trigger manual check', variant: 'destructive' });
    }
  };

  const busy = status.isLoading || checking.isLoading;
  return (
    <li
      className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 sm:flex-row sm:items-center"
      data-testid="monitored-entity"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <Checkbox
          checked={selected}
          onCheckedChange={(value) => onSelect(value === true)}
          aria-label={`Select ${entity.entity_name}`}
          className="mt-1"
        />
        <div className="min-w-0">
          <p className="font-medium break-words">{entity.entity_name}</p>
          <p className="text-sm break-words text-muted-foreground">
            {entity.entity_email ?? 'No email'} · {entity.check_frequency} · last checked{' '}
            {formatDateTime(entity.last_checked)} · {entity.alert_count} alert{entity.alert_count === 1 ? '' : 's'}
          </p>
          {entity.notes && <p className="mt-1 text-sm break-words">{entity.notes}</p>}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={STATUS_TONE[entity.monitoring_status]} className="capitalize">
          {entity.monitoring_status}
        </Badge>
        <Button size="sm" variant="outline" disabled={busy} onClick={() => void runCheck()}>
          {checking.isLoading ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />} Check now
        </Button>
        {entity.monitoring_status === 'active' ? (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void change('paused')}>
            <Pause aria-hidden /> Pause
          </Button>
        ) : (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void change('active')}>
            <Play aria-hidden /> Resume
          </Button>
        )}
        {entity.monitoring_status !== 'stopped' && (
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void change('stopped')}>
            <Square aria-hidden /> Stop
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          onClick={onDelete}
          aria-label={`Delete ${entity.entity_name}`}
        >
          <Trash2 aria-hidden /> Delete
        </Button>
      </div>
    </li>
  );
}

function AlertsTab() {
  const [filter, setFilter] = useState<'all' | 'open'>('open');
  const alerts = useGetMonitoringAlertsQuery(filter === 'open' ? { acknowledged: false } : undefined);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex gap-2" role="group" aria-label="Alert filter">
        <Button size="sm" variant={filter === 'open' ? 'primary' : 'outline'} onClick={() => setFilter('open')}>
          Unacknowledged
        </Button>
        <Button size="sm" variant={filter === 'all' ? 'primary' : 'outline'} onClick={() => setFilter('all')}>
          All
        </Button>
      </div>
      <QueryView
        query={alerts}
        errorTitle="Failed to load monitoring data"
        isEmpty={(data) => data.alerts.length === 0}
        empty={
          <EmptyState title="No alerts" icon={<BellRing aria-hidden />}>
            An alert is raised when a monitored entity matches a sanctioned name.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="flex flex-col gap-2" aria-label="Monitoring alerts">
            {data.alerts.map((alert) => (
              <AlertRow key={alert.id} alert={alert} />
            ))}
          </ul>
        )}
      </QueryView>
    </div>
  );
}

function AlertRow({ alert }: { alert: MonitoringAlert }) {
  const [acknowledge, state] = useAcknowledgeMonitoringAlertMutation();
  const run = async () => {
    try {
      await acknowledge(alert.id).unwrap();
      toast({ title: 'Alert acknowledged', description: `${alert.entity_name}: ${alert.matched_sanctioned_name}` });
    } catch {
      toast({ title: 'Failed to acknowledge alert', variant: 'destructive' });
    }
  };
  return (
    <li
      className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 sm:flex-row sm:items-center"
      data-testid="monitoring-alert"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
        <div className="min-w-0">
          <p className="font-medium break-words">
            {alert.entity_name} → {alert.matched_sanctioned_name}
          </p>
          <p className="text-sm break-words text-muted-foreground">{alert.alert_message}</p>
          <p className="text-xs text-muted-foreground">
            {alert.match_source} · score {alert.match_score.toFixed(3)} · {formatDateTime(alert.triggered_at)}
            {alert.closed_note ? ` · closed: ${alert.closed_note}` : ''}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={SEVERITY_TONE[alert.severity]} className="capitalize">
          {alert.severity}
        </Badge>
        {alert.is_acknowledged ? (
          <Badge tone="success">
            <CheckCheck aria-hidden /> Acknowledged
          </Badge>
        ) : (
          <Button size="sm" variant="outline" disabled={state.isLoading} onClick={() => void run()}>
            <CheckCheck aria-hidden /> Acknowledge
          </Button>
        )}
      </div>
    </li>
  );
}

function SettingsTab() {
  const settings = useGetMonitoringSettingsQuery();
  return (
    <QueryView query={settings} errorTitle="Failed to load monitoring data">
      {(data) => <SettingsForm key={JSON.stringify(data.settings)} initial={data.settings} />}
    </QueryView>
  );
}

function SettingsForm({ initial }: { initial: MonitoringSettings }) {
  const [draft, setDraft] = useState(initial);
  const [save, state] = useUpdateMonitoringSettingsMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await save(draft).unwrap();
      toast({ title: 'Monitoring settings saved' });
    } catch {
      toast({ title: 'Failed to save monitoring settings', variant: 'destructive' });
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="flex max-w-xl flex-col gap-4 rounded-card border border-border bg-surface p-5"
    >
      <SelectField<CheckFrequency>
        id="default-frequency"
        label="Default check frequency"
        value={draft.default_check_frequency}
        options={CHECK_FREQUENCIES}
        onChange={(value) => setDraft({ ...draft, default_check_frequency: value })}
      />
      <label className="flex items-start gap-3 text-sm">
        <Checkbox
          checked={draft.rescreen_on_list_update}
          onCheckedChange={(v) => setDraft({ ...draft, rescreen_on_list_update: v === true })}
          className="mt-0.5"
        />
        Re-screen monitored entities as soon as a sanctions list changes
      </label>
      <label className="flex items-start gap-3 text-sm">
        <Checkbox
          checked={draft.alert_on_review}
          onCheckedChange={(v) => setDraft({ ...draft, alert_on_review: v === true })}
          className="mt-0.5"
        />
        Raise alerts for matches that need review, not only for blocked ones
      </label>
      <div>
        <Button type="submit" disabled={state.isLoading}>
          {state.isLoading && <Loader2 className="animate-spin" aria-hidden />} Save settings
        </Button>
      </div>
    </form>
  );
}

const emptyEntity = {
  entity_name: '',
  entity_email: '',
  notes: '',
  check_frequency: 'daily' as CheckFrequency,
  aliases: '',
};

/** §5: entity_name required (the button is disabled without it); email and notes optional; daily by default. */
function AddEntityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [draft, setDraft] = useState(emptyEntity);
  const [add, state] = useAddMonitoredEntityMutation();
  const close = useCallback(() => {
    setDraft(emptyEntity);
    onClose();
  }, [onClose]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.entity_name.trim()) return;
    try {
      const created = await add({
        entity_name: draft.entity_name.trim(),
        entity_email: draft.entity_email.trim() || null,
        entity_aliases: draft.aliases
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
        check_frequency: draft.check_frequency,
        notes: draft.notes.trim() || null,
      }).unwrap();
      toast({ title: 'Entity added to monitoring', description: created.entity_name });
      close();
    } catch {
      toast({ title: 'Failed to add entity to monitoring', variant: 'destructive' });
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-w-lg">
        <DialogTitle className="text-lg font-semibold">Add Entity</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          The entity is screened now and re-screened on its schedule and whenever a list changes.
        </DialogDescription>
        <form onSubmit={(e) => void submit(e)} className="mt-4 flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="entity-name">Entity name</Label>
            <Input
              id="entity-name"
              value={draft.entity_name}
              onChange={(e) => setDraft({ ...draft, entity_name: e.target.value })}
              autoComplete="off"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="entity-email">Email (optional)</Label>
            <Input
              id="entity-email"
              type="email"
              value={draft.entity_email}
              onChange={(e) => setDraft({ ...draft, entity_email: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="entity-aliases">Aliases (optional, comma separated)</Label>
            <Input
              id="entity-aliases"
              value={draft.aliases}
              onChange={(e) => setDraft({ ...draft, aliases: e.target.value })}
            />
          </div>
          <SelectField<CheckFrequency>
            id="entity-frequency"
            label="Check frequency"
            value={draft.check_frequency}
            options={CHECK_FREQUENCIES}
            onChange={(value) => setDraft({ ...draft, check_frequency: value })}
          />
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="entity-notes">Notes (optional)</Label>
            <textarea
              id="entity-notes"
              rows={3}
              value={draft.notes}
              onChange={(e) => setDraft({ ...draft, notes: e.target.value })}
              className="rounded-lg border border-input bg-surface px-3 py-2 text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-ring"
            />
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!draft.entity_name.trim() || state.isLoading}>
              {state.isLoading && <Loader2 className="animate-spin" aria-hidden />} Add to Monitoring
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Bulk add: one name per line (at most 1,000 per batch, as the server allows). */
function BulkAddDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [text, setText] = useState('');
  const [frequency, setFrequency] = useState<CheckFrequency>('daily');
  const [bulkAdd, state] = useBulkAddMonitoredEntitiesMutation();
  const names = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const close = () => {
    setText('');
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (names.length === 0) return;
    if (names.length > 1000) {
      toast({
        title: 'Failed to add entity to monitoring',
        description: 'Maximum 1000 entities allowed per batch',
        variant: 'destructive',
      });
      return;
    }
    try {
      const reply = await bulkAdd({
        entities: names.map((entity_name) => ({ entity_name, check_frequency: frequency })),
      }).unwrap();
      toast({ title: 'Entities added to monitoring', description: `${reply.created} added.` });
      close();
    } catch {
      toast({ title: 'Failed to add entity to monitoring', variant: 'destructive' });
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-w-lg">
        <DialogTitle className="text-lg font-semibold">Bulk Add</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          One name per line, up to 1,000 at a time.
        </DialogDescription>
        <form onSubmit={(e) => void submit(e)} className="mt-4 flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="bulk-names">Names</Label>
            <textarea
              id="bulk-names"
              rows={8}
              value={text}
              onChange={(e) => setText(e.target.value)}
              className="rounded-lg border border-input bg-surface px-3 py-2 font-mono text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-ring"
            />
            <p className="text-xs text-muted-foreground">{countFormat.format(names.length)} names</p>
          </div>
          <SelectField<CheckFrequency>
            id="bulk-frequency"
            label="Check frequency"
            value={frequency}
            options={CHECK_FREQUENCIES}
            onChange={setFrequency}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={names.length === 0 || state.isLoading}>
              {state.isLoading && <Loader2 className="animate-spin" aria-hidden />} Add{' '}
              {countFormat.format(names.length)}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
