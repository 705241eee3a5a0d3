import {
  WEBHOOK_EVENT_TYPES,
  memberRoleAtLeast,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@vigil/proto';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Input,
  Label,
  QueryView,
  errorMessage,
  toast,
} from '@vigil/ui';
import { useAuth } from '@vigil/ui/session';
import { KeyRound, Loader2, Plus, Send, Trash2, Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { ConfirmDialog } from '../screening/confirm-dialog.js';
import { PageHeader } from '../screening/dashboard-shell.js';
import { EmptyState, formatDateTime } from '../screening/parts.js';
import { usePageTitle } from '../shell/page-title.js';
import {
  useDeleteWebhookMutation,
  useGetWebhookDeliveriesQuery,
  useGetWebhooksQuery,
  useRegisterWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
} from './webhooks.api.js';

const EVENT_LABELS: Record<WebhookEventType, string> = {
  'monitoring.alert': 'Monitoring alerts',
  'screening.review_required': 'Screenings that need review',
  'bulk_job.completed': 'Finished bulk jobs',
};

const DELIVERY_TONE = { delivered: 'success', pending: 'warning', failed: 'destructive' } as const;

// What the gateway checks (proto createWebhookBodySchema), checked before sending.
const endpointSchema = z.object({
  url: z.url({ protocol: /^https?$/, message: 'Enter an https:// URL.' }).max(2000),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'Pick at least one event type.'),
});

/**
 * Registering, testing, rotating and deleting need a supervisor or owner (the gateway answers
 * ROLE_FORBIDDEN otherwise); any member reads the endpoints and their deliveries.
 */
function useMayManage(): boolean {
  return memberRoleAtLeast(useAuth().user?.member_role, 'supervisor');
}

/** /dashboard/screening/webhooks: a client's webhook endpoints and what was delivered to them. */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  const webhooks = useGetWebhooksQuery();
  const mayManage = useMayManage();
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  return (
    <div>
      <PageHeader
        title="Webhooks"
        description="Signed HTTPS callbacks (Standard Webhooks) when an alert is raised, a screening needs review or a bulk job finishes."
      />
      {!mayManage && (
        <p className="mb-4 text-sm text-muted-foreground" data-testid="role-note">
          Only supervisors and owners of your team can register, test, rotate or delete webhooks.
        </p>
      )}
      <RegisterCard disabled={!mayManage} onRegistered={setSecret} />
      <div className="mt-6">
        <QueryView
          query={webhooks}
          errorTitle="Failed to load webhooks"
          isEmpty={(data) => data.webhooks.length === 0}
          empty={
            <EmptyState title="No webhooks yet" icon={<Webhook aria-hidden />}>
              Register an endpoint above, then send it a test event.
            </EmptyState>
          }
        >
          {({ webhooks: endpoints }) => (
            <ul className="space-y-4" data-testid="webhook-list">
              {endpoints.map((endpoint) => (
                <EndpointCard key={endpoint.id} endpoint={endpoint} mayManage={mayManage} onRotated={setSecret} />
              ))}
            </ul>
          )}
        </QueryView>
      </div>
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </div>
  );
}

function RegisterCard({
  disabled,
  onRegistered,
}: {
  disabled: boolean;
  onRegistered: (shown: { url: string; secret: string }) => void;
}) {
  const [register, registering] = useRegisterWebhookMutation();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['monitoring.alert']);
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = (event: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = endpointSchema.safeParse({ url: url.trim(), event_types: events });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the form.');
    setProblem(null);
    try {
      const reply = await register(parsed.data).unwrap();
      setUrl('');
      onRegistered({ url: reply.webhook.url, secret: reply.secret });
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Register an endpoint</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate>
          <div className="space-y-1.5">
            <Label htmlFor="webhook-url">Endpoint URL</Label>
            <Input
              id="webhook-url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/vigil/webhooks"
              disabled={disabled}
              aria-invalid={problem !== null}
              aria-describedby={problem ? 'webhook-url-error' : undefined}
            />
          </div>
          <fieldset className="space-y-2" disabled={disabled}>
            <legend className="text-sm font-medium">Events</legend>
            {WEBHOOK_EVENT_TYPES.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm">
                <Checkbox checked={events.includes(event)} onCheckedChange={(on) => toggle(event, on === true)} />
                {EVENT_LABELS[event]} <code className="text-xs text-muted-foreground">{event}</code>
              </label>
            ))}
          </fieldset>
          {problem && (
            <p id="webhook-url-error" role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
          <Button type="submit" disabled={disabled || registering.isLoading}>
            {registering.isLoading ? <Loader2 aria-hidden className="animate-spin" /> : <Plus aria-hidden />}
            Register webhook
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function EndpointCard({
  endpoint,
  mayManage,
  onRotated,
}: {
  endpoint: WebhookEndpoint;
  mayManage: boolean;
  onRotated: (shown: { url: string; secret: string }) => void;
}) {
  const [test, testing] = useTestWebhookMutation();
  const [rotate, rotating] = useRotateWebhookSecretMutation();
  const [remove, removing] = useDeleteWebhookMutation();
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null);
  const sendTest = async () => {
    try {
      const { delivery } = await test(endpoint.id).unwrap();
      const last = delivery.attempts.at(-1);
      toast({
        title: delivery.status === 'delivered' ? 'Test event delivered' : 'Test event not delivered',
        description: last?.status_code ? `Your endpoint answered ${last.status_code}.` : (last?.error ?? undefined),
        variant: delivery.status === 'delivered' ? 'default' : 'destructive',
      });
    } catch (error) {
      toast({ title: 'Test failed', description: errorMessage(error), variant: 'destructive' });
    }
  };
  const confirm = async () => {
    try {
      if (confirming === 'rotate') {
        const reply = await rotate(endpoint.id).unwrap();
        onRotated({ url: reply.webhook.url, secret: reply.secret });
      } else {
        await remove(endpoint.id).unwrap();
        toast({ title: 'Webhook deleted' });
      }
    } catch (error) {
      toast({ title: 'That did not work', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setConfirming(null);
    }
  };
  return (
    <li>
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <CardTitle className="break-all text-base">{endpoint.url}</CardTitle>
            <p className="mt-1 text-xs text-muted-foreground">
              {endpoint.event_types.join(', ')} · registered {formatDateTime(endpoint.created_at)}
            </p>
            {!endpoint.enabled && (
              <Badge tone="destructive" className="mt-2">
                Disabled{endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}
              </Badge>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={!mayManage || testing.isLoading}
              onClick={() => void sendTest()}
            >
              {testing.isLoading ? <Loader2 aria-hidden className="animate-spin" /> : <Send aria-hidden />}
              Send test event
            </Button>
            <Button size="sm" variant="outline" disabled={!mayManage} onClick={() => setConfirming('rotate')}>
              <KeyRound aria-hidden /> Rotate secret
            </Button>
            <Button size="sm" variant="destructive" disabled={!mayManage} onClick={() => setConfirming('delete')}>
              <Trash2 aria-hidden /> Delete
            </Button>
          </div>
        </CardHeader>
        <CardContent>
          <Deliveries id={endpoint.id} />
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'rotate' ? 'Rotate the signing secret?' : 'Delete this webhook?'}
        confirmLabel={confirming === 'rotate' ? 'Rotate secret' : 'Delete webhook'}
        busy={rotating.isLoading || removing.isLoading}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(null)}
      >
        {confirming === 'rotate'
          ? 'Deliveries are signed with the new secret from now on; the old one stops verifying.'
          : 'No further events are sent to this endpoint.'}
      </ConfirmDialog>
    </li>
  );
}

function Deliveries({ id }: { id: string }) {
  const deliveries = useGetWebhookDeliveriesQuery(id);
  return (
    <QueryView
      query={deliveries}
      errorTitle="Failed to load deliveries"
      isEmpty={(data) => data.deliveries.length === 0}
      empty={<p className="text-sm text-muted-foreground">No deliveries yet.</p>}
    >
      {(data) => (
        <table className="w-full text-left text-sm" aria-label="Deliveries">
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th className="py-1 font-medium">Event</th>
              <th className="py-1 font-medium">Status</th>
              <th className="py-1 font-medium">Attempts</th>
              <th className="py-1 font-medium">Last answer</th>
              <th className="py-1 font-medium">Next retry</th>
            </tr>
          </thead>
          <tbody>
            {data.deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </tbody>
        </table>
      )}
    </QueryView>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const last = delivery.attempts.at(-1);
  return (
    <tr className="border-t border-border">
      <td className="py-1.5">
        <code className="text-xs">{delivery.event_type}</code>
      </td>
      <td className="py-1.5">
        <Badge tone={DELIVERY_TONE[delivery.status]}>{delivery.status}</Badge>
      </td>
      <td className="py-1.5">{delivery.attempts.length}</td>
      <td className="py-1.5">{last ? (last.status_code ?? last.error ?? '—') : '—'}</td>
      <td className="py-1.5">{delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : '—'}</td>
    </tr>
  );
}

/** The signing secret, shown once after registering or rotating: the server keeps it sealed. */
function SecretDialog({ shown, onClose }: { shown: { url: string; secret: string } | null; onClose: () => void }) {
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogTitle className="text-lg font-semibold">Your signing secret</DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          Verify each delivery to {shown?.url} with this secret. It is shown once: store it now.
        </DialogDescription>
        <code className="mt-4 block break-all rounded-md bg-muted p-3 text-sm" data-testid="webhook-secret">
          {shown?.secret}
        </code>
        <div className="mt-6 flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
