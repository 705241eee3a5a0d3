import { Controller, Delete, Get, HttpCode, Post, Put, Sse, type MessageEvent } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  bulkAddBodySchema,
  bulkRemoveBodySchema,
  contracts,
  createWebhookBodySchema,
  listAlertsQuerySchema,
  listMonitoredEntitiesQuerySchema,
  monitoringSettingsChangeSchema,
  newMonitoredEntitySchema,
  updateMonitoredEntityBodySchema,
  webhookDeliveriesQuerySchema,
  liveTicketSchema,
  type ResolvedKey,
} from '@vigil/proto';
import { map, type Observable } from 'rxjs';
import { z } from 'zod';
import { Credentials, RequiresMemberRole, RequiresPlan, type Caller } from '../credentials/credentials.js';
import { CurrentCaller, CurrentClient, ZodBody, ZodParam, ZodQuery } from '../http/route-params.js';
import { LiveTickets } from './live-socket.js';
import { streamOpenerOf } from './live-streams.js';
import { Monitoring, monitoringActor, monitoringCaller } from './monitoring.service.js';
import { Answers } from '../http/answers.js';

const on = contracts.monitoring;
const uuid = z.uuid();

/** A path id that is not an id names nothing: 404, like another client's id. */
function idParam(id: string, what: string): string {
  if (!uuid.safeParse(id).success) throw new DomainError('NOT_FOUND', `No ${what} ${id.slice(0, 80)}.`);
  return id;
}

/**
 * Ongoing monitoring (spec §7 "Monitoring"), webhooks and live push, for the dashboard (a session
 * of one of the client's users, roles applying) and for a bank's server (the client's API key
 * alone: the plan's features apply, team roles do not). Bodies and queries are parsed with the
 * proto schemas monitoring parses too; `caller` always comes from the credentials.
 */
@Controller('api/monitoring')
export class MonitoringController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly monitoring: Monitoring,
    private readonly tickets: LiveTickets,
  ) {}

  @Post('entities')
  @Answers(on.entities.create, { status: 201, summary: 'Monitor an entity' })
  @HttpCode(201)
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  create(
    @CurrentClient() client: ResolvedKey,
    @ZodBody(newMonitoredEntitySchema, 'monitored entity') body: z.output<typeof newMonitoredEntitySchema>,
  ) {
    return this.rpc.request(on.entities.create, { ...body, caller: monitoringCaller(client) });
  }

  @Get('entities')
  @Answers(on.entities.list, { summary: 'Monitored entities, one page' })
  @Credentials('key-or-session')
  list(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(listMonitoredEntitiesQuerySchema) query: z.output<typeof listMonitoredEntitiesQuerySchema>,
  ) {
    return this.rpc.request(on.entities.list, { ...query, caller: monitoringCaller(client) });
  }

  @Put('entities/:id')
  @Answers(on.entities.update, { summary: 'Update a monitored entity' })
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  update(
    @CurrentClient() client: ResolvedKey,
    @ZodParam('id') id: string,
    @ZodBody(updateMonitoredEntityBodySchema, 'status change') body: z.output<typeof updateMonitoredEntityBodySchema>,
  ) {
    return this.rpc.request(on.entities.update, {
      ...body,
      id: idParam(id, 'monitored entity'),
      caller: monitoringCaller(client),
    });
  }

  @Delete('entities/:id')
  @Answers(on.entities.delete, { summary: 'Stop monitoring an entity' })
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  remove(@CurrentClient() client: ResolvedKey, @ZodParam('id') id: string) {
    return this.rpc.request(on.entities.delete, {
      id: idParam(id, 'monitored entity'),
      caller: monitoringCaller(client),
    });
  }

  /** The manual check: screened now, its alerts raised before the answer. */
  @Post('entities/:id/check')
  @Answers(on.entities.check, { summary: 'Screen a monitored entity now' })
  @HttpCode(200)
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  check(@CurrentClient() client: ResolvedKey, @ZodParam('id') id: string) {
    return this.rpc.request(
      on.entities.check,
      { id: idParam(id, 'monitored entity'), caller: monitoringCaller(client) },
      { timeoutMs: this.monitoring.slowTimeoutMs },
    );
  }

  @Get('alerts')
  @Answers(on.alerts.list, { summary: 'Monitoring alerts, one page' })
  @Credentials('key-or-session')
  alerts(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(listAlertsQuerySchema) query: z.output<typeof listAlertsQuerySchema>,
  ) {
    return this.rpc.request(on.alerts.list, { ...query, caller: monitoringCaller(client) });
  }

  @Post('alerts/:id/acknowledge')
  @Answers(on.alerts.acknowledge, { summary: 'Acknowledge an alert' })
  @HttpCode(200)
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  acknowledge(@CurrentClient() client: ResolvedKey, @ZodParam('id') id: string) {
    return this.rpc.request(on.alerts.acknowledge, {
      id: idParam(id, 'monitoring alert'),
      caller: monitoringCaller(client),
    });
  }

  @Get('stats')
  @Answers(on.stats, { summary: 'Monitoring figures' })
  @Credentials('key-or-session')
  stats(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.stats, { caller: monitoringCaller(client) });
  }

  @Get('settings')
  @Answers(on.settings.get, { summary: 'Monitoring settings' })
  @Credentials('key-or-session')
  settings(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.settings.get, { caller: monitoringCaller(client) });
  }

  @Put('settings')
  @Answers(on.settings.update, { summary: 'Change monitoring settings' })
  @Credentials('key-or-session')
  @RequiresMemberRole('supervisor')
  updateSettings(
    @CurrentClient() client: ResolvedKey,
    @CurrentCaller() caller: Caller,
    @ZodBody(monitoringSettingsChangeSchema, 'settings') body: z.output<typeof monitoringSettingsChangeSchema>,
  ) {
    return this.rpc.request(on.settings.update, {
      ...body,
      caller: monitoringCaller(client),
      actor: monitoringActor(caller),
    });
  }

  @Post('bulk')
  @Answers(on.entities.bulkAdd, { status: 201, summary: 'Monitor many entities' })
  @HttpCode(201)
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  bulkAdd(
    @CurrentClient() client: ResolvedKey,
    @ZodBody(bulkAddBodySchema, 'bulk add') body: z.output<typeof bulkAddBodySchema>,
  ) {
    return this.rpc.request(
      on.entities.bulkAdd,
      { ...body, caller: monitoringCaller(client) },
      { timeoutMs: this.monitoring.slowTimeoutMs },
    );
  }

  /** All of the ids the client's, or nothing is removed (404). */
  @Post('bulk/remove')
  @Answers(on.entities.bulkRemove, { summary: 'Stop monitoring many entities' })
  @HttpCode(200)
  @Credentials('key-or-session')
  @RequiresMemberRole('analyst')
  bulkRemove(
    @CurrentClient() client: ResolvedKey,
    @ZodBody(bulkRemoveBodySchema, 'bulk remove') body: z.output<typeof bulkRemoveBodySchema>,
  ) {
    return this.rpc.request(on.entities.bulkRemove, { ...body, caller: monitoringCaller(client) });
  }

  @Get('service/status')
  @Answers(on.serviceStatus, { summary: 'Monitoring service status' })
  @Credentials('key-or-session')
  status(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.serviceStatus, { caller: monitoringCaller(client) });
  }

  /** The secret (whsec_…) is in this answer only. */
  @Post('webhooks')
  @Answers(on.webhooks.create, { status: 201, summary: 'Register a webhook' })
  @HttpCode(201)
  @Credentials('key-or-session')
  @RequiresMemberRole('supervisor')
  @RequiresPlan('webhookNotifications')
  createWebhook(
    @CurrentClient() client: ResolvedKey,
    @CurrentCaller() caller: Caller,
    @ZodBody(createWebhookBodySchema, 'webhook endpoint') body: z.output<typeof createWebhookBodySchema>,
  ) {
    return this.rpc.request(on.webhooks.create, {
      ...body,
      caller: monitoringCaller(client),
      actor: monitoringActor(caller),
    });
  }

  @Get('webhooks')
  @Answers(on.webhooks.list, { summary: 'Registered webhooks' })
  @Credentials('key-or-session')
  @RequiresPlan('webhookNotifications')
  webhooks(@CurrentClient() client: ResolvedKey) {
    return this.rpc.request(on.webhooks.list, { caller: monitoringCaller(client) });
  }

  @Delete('webhooks/:id')
  @Answers(on.webhooks.delete, { summary: 'Delete a webhook' })
  @Credentials('key-or-session')
  @RequiresMemberRole('supervisor')
  @RequiresPlan('webhookNotifications')
  deleteWebhook(@CurrentClient() client: ResolvedKey, @CurrentCaller() caller: Caller, @ZodParam('id') id: string) {
    return this.rpc.request(on.webhooks.delete, {
      id: idParam(id, 'webhook endpoint'),
      caller: monitoringCaller(client),
      actor: monitoringActor(caller),
    });
  }

  /** A new signing secret, in this answer only; the old one stops verifying at once. */
  @Post('webhooks/:id/rotate-secret')
  @Answers(on.webhooks.rotateSecret, {
    summary: "Rotate a webhook's signing secret",
    description:
      'The endpoint and its new `whsec_` secret, shown in this answer only. Every delivery from now on, ' +
      'including those waiting for a retry, is signed with it; the old secret stops verifying at once.',
  })
  @HttpCode(200)
  @Credentials('key-or-session')
  @RequiresMemberRole('supervisor')
  @RequiresPlan('webhookNotifications')
  rotateWebhookSecret(
    @CurrentClient() client: ResolvedKey,
    @CurrentCaller() caller: Caller,
    @ZodParam('id') id: string,
  ) {
    return this.rpc.request(on.webhooks.rotateSecret, {
      id: idParam(id, 'webhook endpoint'),
      caller: monitoringCaller(client),
      actor: monitoringActor(caller),
    });
  }

  @Get('webhooks/:id/deliveries')
  @Answers(on.webhooks.deliveries, { summary: "A webhook's deliveries" })
  @Credentials('key-or-session')
  @RequiresPlan('webhookNotifications')
  deliveries(
    @CurrentClient() client: ResolvedKey,
    @ZodParam('id') id: string,
    @ZodQuery(webhookDeliveriesQuerySchema) query: z.output<typeof webhookDeliveriesQuerySchema>,
  ) {
    return this.rpc.request(on.webhooks.deliveries, {
      ...query,
      id: idParam(id, 'webhook endpoint'),
      caller: monitoringCaller(client),
    });
  }

  /**
   * Sends a signed test event (`webhook.test`) to the endpoint now, once, and answers its delivery
   * with the attempt: the way to check a receiver verifies Standard Webhooks signatures.
   */
  @Post('webhooks/:id/test')
  @Answers(on.webhooks.test, {
    summary: 'Send a test event to a webhook',
    description:
      'The `webhook.test` delivery after its one attempt (not retried): `status` delivered when the endpoint ' +
      'answered 2xx, failed otherwise, with the status code or error in `attempts`. Signed like every delivery.',
  })
  @HttpCode(200)
  @Credentials('key-or-session')
  @RequiresMemberRole('supervisor')
  @RequiresPlan('webhookNotifications')
  testWebhook(@CurrentClient() client: ResolvedKey, @ZodParam('id') id: string) {
    return this.rpc.request(
      on.webhooks.test,
      { id: idParam(id, 'webhook endpoint'), caller: monitoringCaller(client) },
      { timeoutMs: this.monitoring.slowTimeoutMs },
    );
  }

  /** The WebSocket's ticket (live-socket.ts): the credentials are judged here, like every route's. */
  @Post('live-ticket')
  @Answers(liveTicketSchema, {
    summary: 'A ticket for the live WebSocket',
    description:
      'Single-use, good for `expires_in` seconds: open `path` on the gateway with ws:// or wss://. The socket ' +
      "sends the stream's events as JSON text frames (`ready`, `monitoring.alert`, `screening.review_required`) " +
      'and closes when the stream would end (sign-out, revocation, removal from the team, a regenerated key).',
  })
  @HttpCode(200)
  @Credentials('key-or-session')
  // Every member may watch (the SSE stream asks no role either); the POST only issues a ticket.
  @RequiresMemberRole('viewer')
  @RequiresPlan('webSocketAccess')
  liveTicket(@CurrentClient() client: ResolvedKey, @CurrentCaller() caller: Caller) {
    return this.tickets.issue(client, streamOpenerOf(caller));
  }

  /** Server-Sent Events: `monitoring.alert` and `screening.review_required` as they happen (medium tier and up). */
  @Sse('stream')
  @Answers(
    { mediaType: 'text/event-stream' },
    {
      summary: 'Live alerts (Server-Sent Events)',
      description:
        'Events `ready`, `monitoring.alert` and `screening.review_required`, each `data` a JSON object. Opened ' +
        'with the API key alone (a server; it ends when the key is revoked) or a session (it ends with the session).',
    },
  )
  @Credentials('key-or-session')
  stream(@CurrentClient() client: ResolvedKey, @CurrentCaller() caller: Caller): Observable<MessageEvent> {
    return this.monitoring
      .push(client, streamOpenerOf(caller))
      .pipe(map((push): MessageEvent => (push ? { type: push.type, data: push } : { type: 'ready', data: {} })));
  }
}
