// `npm run test:resilience`: the whole stack as `npm start` runs it, on a Postgres cluster and a
// nats-server of its own, under a mixed workload while every service is SIGKILLed once, nats-server
// is restarted once and Postgres crashes (immediate shutdown) and restarts once. Then the databases
// and the webhook receiver are read to prove every accepted request took effect exactly once.
//
//   RESILIENCE_SECONDS     workload length (default 150)
//   RESILIENCE_BULK_NAMES  names in the bulk job (default 10000)
//
// Prints `resilience: N requests, K faults, lost L, duplicated D, errors E (…)` and exits 1 on any
// loss or duplicate, on a failed audit chain, or on errors outside the fault windows.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { totpCode } from '@vigil/platform/testing';
import { ROOT, log } from '../../scripts/bootstrap.mjs';
import { privatePorts, sleep, startNats, startPrivatePostgres, startPrivateStack } from '../private-stack.mjs';

const SECONDS = Number(process.env.RESILIENCE_SECONDS ?? 150);
const BULK_NAMES = Number(process.env.RESILIENCE_BULK_NAMES ?? 10_000);
const started = Date.now();
const elapsed = () => ((Date.now() - started) / 1000).toFixed(0);

// ---------------------------------------------------------------------------------------------
// Faults and their windows: an error is expected only between a fault and the stack's recovery.

const windows = [];
let faultCount = 0;
const inFaultWindow = (at) => windows.some((w) => at >= w.from && at <= (w.to ?? Infinity));

const stats = { requests: 0, accepted: 0, errors: 0, errorsOutside: [], retries: 0 };

// ---------------------------------------------------------------------------------------------
// A client that retries as a careful bank integration does: the same Idempotency-Key and request
// id on every attempt, until an answer that is not a transport failure, a 5xx or a 429.

let gatewayUrl;

async function call(method, path, { key, token, body, form, idempotencyKey, requestId = randomUUID(), retryForMs = 90_000 } = {}) {
  stats.requests += 1;
  const deadline = Date.now() + retryForMs;
  for (let attempt = 0; ; attempt++) {
    const headers = { 'x-request-id': requestId };
    if (key) headers['x-api-key'] = key;
    if (token) headers.authorization = `Bearer ${token}`;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let payload;
    if (form) payload = form();
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let status;
    let text = '';
    let retryAfter = 0;
    try {
      const res = await fetch(`${gatewayUrl}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
      status = res.status;
      text = await res.text();
      retryAfter = Number(res.headers.get('retry-after') ?? 0);
    } catch (error) {
      status = 0;
      text = error.message;
    }
    // Judged when the answer came: a request sent just before a fault fails inside its window.
    const at = Date.now();
    // A 409 CONFLICT under an Idempotency-Key says the first attempt is still being processed
    // (its answer will be replayed): a careful client retries it after Retry-After, as it does a 429.
    const stillProcessing = status === 409 && idempotencyKey !== undefined && safeJson(text)?.code === 'CONFLICT';
    const transient = status === 0 || status >= 500 || status === 429 || stillProcessing;
    if (!transient) {
      if (status >= 400) {
        stats.errors += 1;
        if (!inFaultWindow(at)) stats.errorsOutside.push(`${method} ${path} → ${status} ${text.slice(0, 200)}`);
        return { status, json: safeJson(text), requestId };
      }
      stats.accepted += 1;
      return { status, json: safeJson(text), requestId };
    }
    // Neither is a failure: the limiter and an operation still in progress (a crashed gateway's
    // pending Idempotency-Key is taken over 10 s after its last renewal) both say when to come back.
    if (status !== 429 && !stillProcessing) {
      stats.errors += 1;
      if (!inFaultWindow(at)) stats.errorsOutside.push(`${method} ${path} → ${status || 'no answer'} ${text.slice(0, 200)} at ${((at - started) / 1000).toFixed(1)}s`);
    }
    if (Date.now() > deadline) return { status, json: safeJson(text), requestId, gaveUp: true };
    stats.retries += 1;
    await sleep(status === 429 || stillProcessing ? Math.max(1, retryAfter) * 1000 : Math.min(2000, 200 * 2 ** Math.min(attempt, 4)));
  }
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The webhook receiver: what a customer's endpoint saw.

function startReceiver(port) {
  const received = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ id: req.headers['webhook-id'], body: safeJson(body) });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ port, received, close: () => server.close() })));
}

// ---------------------------------------------------------------------------------------------

async function main() {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'vigil-resilience-'));
  // Postgres runs as the postgres user when this runs as root: it must reach its data folder.
  chmodSync(work, 0o755);
  const logDir = join(ROOT, 'test-results', 'resilience-logs');
  rmSync(logDir, { recursive: true, force: true });
  const [pgPort, natsPort, receiverPort] = await privatePorts(3);
  // The sample lists, copied so one can change mid-run (a list update monitoring must re-screen against).
  const listsDir = join(work, 'lists');
  cpSync(join(ROOT, 'services', 'screening', 'sample-lists'), listsDir, { recursive: true });

  log(`Resilience: private Postgres on ${pgPort}, nats-server on ${natsPort}, ${SECONDS}s of workload, a bulk job of ${BULK_NAMES} names`);
  const postgres = await startPrivatePostgres({ port: pgPort, dataDir: join(work, 'pg') });
  const nats = await startNats({ port: natsPort, storeDir: join(work, 'nats') });
  const receiver = await startReceiver(receiverPort);
  let stack;
  try {
    stack = await startPrivateStack({
      databaseUrl: postgres.url,
      natsUrl: nats.url,
      busKeys: nats.keys,
      logDir,
      env: {
        LISTS_DIR: listsDir,
        LISTS_CACHE_DIR: join(work, 'lists-cache'),
        WEBHOOK_ALLOW_LOOPBACK: '1',
        // The workload is a few clients' worth of traffic; the limits are not what is under test here.
        RATE_LIMIT_SCALE: '100',
        LOG_LEVEL: 'warn',
      },
    });
    gatewayUrl = stack.gatewayUrl;
    const verdict = await run({ stack, postgres, nats, receiver, listsDir });
    process.exitCode = verdict ? 0 : 1;
  } finally {
    await stack?.stop();
    receiver.close();
    await nats.stop();
    await postgres.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function signIn(email, password) {
  const res = await call('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return res.json.access_token;
}

/** The demo admin at aal2 (every admin route needs it): the password, then its authenticator's code. */
async function adminSignIn(admin) {
  const res = await call('POST', '/auth/v1/token?grant_type=password', { body: { email: admin.email, password: admin.password } });
  if (res.status !== 200) throw new Error(`sign-in of ${admin.email} answered ${res.status}`);
  const token = res.json.access_token;
  const factor = res.json.user.factors.find((f) => f.status === 'verified');
  if (!factor) throw new Error(`the demo admin ${admin.email} has no verified authenticator`);
  const challenge = await call('POST', `/auth/v1/factors/${factor.id}/challenge`, { token, body: {} });
  const verified = await call('POST', `/auth/v1/factors/${factor.id}/verify`, {
    token,
    body: { challenge_id: challenge.json.id, code: totpCode(admin.totpSecret) },
  });
  if (verified.status !== 200) throw new Error(`the demo admin's code answered ${verified.status}`);
  return verified.json.access_token;
}

async function run({ stack, postgres, nats, receiver, listsDir }) {
  const { client, admin } = stack.demo;
  const { default: pg } = await import('pg');
  const db = new pg.Pool({ connectionString: postgres.url, max: 2 });
  const token = { client: await signIn(client.email, client.password), admin: await adminSignIn(admin) };
  const as = () => ({ key: client.apiKey, token: token.client });

  // --- Set-up through the API: a webhook to the local receiver, monitored entities, one of which
  // is a name the list update below adds.
  const hook = await call('POST', '/api/monitoring/webhooks', {
    ...as(),
    body: { url: `http://127.0.0.1:${receiver.port}/hook`, event_types: ['monitoring.alert', 'screening.review_required', 'bulk_job.completed'] },
    idempotencyKey: randomUUID(),
  });
  if (hook.status >= 300) throw new Error(`webhook registration answered ${hook.status}: ${JSON.stringify(hook.json)}`);
  const NEW_NAME = 'Dragomir Resilienkov';
  const entityNames = [NEW_NAME, 'Jane Quietperson', 'Oskar Nobodyson'];
  const entities = [];
  for (const entity_name of entityNames) {
    const res = await call('POST', '/api/monitoring/entities', { ...as(), body: { entity_name, check_frequency: 'daily' }, idempotencyKey: randomUUID() });
    if (res.status >= 300) throw new Error(`monitored entity answered ${res.status}: ${JSON.stringify(res.json)}`);
    entities.push(res.json.id ?? res.json.entity?.id);
  }

  // --- The workload.
  const screens = []; // { requestId, screeningId }
  const uploads = []; // { name, status }
  const decisions = []; // { reviewId, status }
  let bulk;
  let listUpdatedAt;
  const stopAt = Date.now() + SECONDS * 1000;
  const NAMES = ['Vladimir Putin', 'Jane Doe', 'Maduro', 'Acme Trading LLC', 'Abramovich', 'Maria Garcia', 'Rosneft', 'John Smith', 'Kim Jong', 'Hassan Nasrallah'];

  const screenLoop = async (worker) => {
    for (let i = 0; Date.now() < stopAt; i++) {
      const requestId = randomUUID();
      const res = await call('POST', '/api/v1/screen', {
        key: client.apiKey,
        body: { name: NAMES[(i + worker) % NAMES.length] },
        idempotencyKey: requestId,
        requestId,
      });
      if (res.status === 200) screens.push({ requestId, screeningId: res.json.screeningId });
      else if (!res.gaveUp) screens.push({ requestId, refused: `${res.status} ${res.json?.code ?? ""}` });
      else screens.push({ requestId, unanswered: true });
      await sleep(50);
    }
  };

  const uploadLoop = async () => {
    for (let i = 0; Date.now() < stopAt; i++) {
      const name = `resilience-list-${i}`;
      const csv = `name,email\n${NAMES.map((n, j) => `${n} ${i},p${i}-${j}@example.com`).join('\n')}\n`;
      const requestId = randomUUID();
      const res = await call('POST', '/api/client-lists/upload-csv', {
        requestId,
        ...as(),
        idempotencyKey: randomUUID(),
        form: () => {
          const form = new FormData();
          form.set('file', new Blob([csv], { type: 'text/csv' }), `${name}.csv`);
          form.set('name', name);
          return form;
        },
      });
      uploads.push({ name, requestId, entries: NAMES.length, status: res.status, gaveUp: !!res.gaveUp });
      await sleep(4000);
    }
  };

  const reviewLoop = async () => {
    while (Date.now() < stopAt) {
      await sleep(3000);
      const pending = await call('GET', '/api/sanctions/review?status=pending&limit=5', as());
      for (const review of pending.json?.reviews ?? []) {
        if (review.status !== 'pending') continue;
        const action = decisions.length % 2 ? 'block' : 'approve';
        // A decision carries its reason (the analyst's words for the audit trail).
        const reasonCode = action === 'approve' ? 'name_only_coincidence' : 'confirmed_match';
        const res = await call('POST', `/api/sanctions/review/${review.id}?action=${action}`, {
          ...as(),
          body: { reasonCode },
          idempotencyKey: `decide-${review.id}`,
        });
        decisions.push({ reviewId: review.id, status: res.status, gaveUp: !!res.gaveUp });
      }
    }
  };

  const bulkTask = async () => {
    await sleep(5000);
    const names = Array.from({ length: BULK_NAMES }, (_, i) => `${NAMES[i % NAMES.length]} ${i}`);
    const requestId = randomUUID();
    const res = await call('POST', '/api/v1/bulk-screen', { key: client.apiKey, body: { names }, idempotencyKey: requestId, requestId });
    if (res.status !== 202 && res.status !== 200) throw new Error(`the bulk job answered ${res.status}: ${JSON.stringify(res.json).slice(0, 200)}`);
    bulk = { jobId: res.json.jobId, total: BULK_NAMES, requestId };
    log(`bulk job ${bulk.jobId} accepted at ${elapsed()}s`);
  };

  const bulkWatch = async () => {
    while (!bulk?.completedAt && Date.now() < stopAt + 150_000) {
      await sleep(2000);
      if (!bulk) continue;
      // An observer, not part of the workload: not counted, its failures during faults ignored.
      const res = await fetch(`${gatewayUrl}/api/v1/jobs/${bulk.jobId}?limit=1`, { headers: { 'x-api-key': client.apiKey } }).catch(() => undefined);
      const job = res?.ok ? await res.json() : undefined;
      if (job?.status === 'completed') bulk.completedAt = elapsed();
    }
  };

  const listUpdate = async () => {
    // Past a third of the run: a new entry in the UK list, then a forced refresh of that source.
    await sleep((SECONDS * 1000) / 3);
    appendFileSync(
      join(listsDir, 'uk_ofsi', 'ConList.csv'),
      'RESILIENKOV,Dragomir,,,,,,01/01/1970,Moscow,Russia,Russia,,,,,,,,,,,,Added by the resilience suite.,Individual,Primary name,Russia,01/01/2026,01/01/2026,99901\n',
    );
    const res = await call('POST', '/api/client/admin/lists/refresh', { token: token.admin, body: { sources: ['uk-hmt'], force: true }, idempotencyKey: randomUUID() });
    listUpdatedAt = Date.now();
    log(`list update (uk-hmt + ${NEW_NAME}) answered ${res.status} at ${elapsed()}s`);
  };

  const faults = async () => {
    // The gateway (it runs a bulk worker) and screening first: their deaths land inside the bulk job.
    const plan = ['gateway', 'screening', 'monitoring', 'nats', 'audit', 'billing', 'postgres', 'auth'];
    const gap = (SECONDS * 1000) / (plan.length + 1);
    // The first fault lands inside the bulk job (a 10,000-name job takes seconds, not minutes).
    while (!bulk && Date.now() < stopAt) await sleep(100);
    await sleep(1500);
    for (const [i, target] of plan.entries()) {
      if (i > 0) await sleep(gap);
      const window = { target, from: Date.now() };
      windows.push(window);
      faultCount += 1;
      if (target === 'nats') await nats.restart();
      else if (target === 'postgres') await postgres.restart();
      else {
        await stack.kill(target, 'SIGKILL');
        await sleep(1000);
        stack.restart(target);
      }
      await waitHealthy();
      // A few seconds past green: in-flight retries and reconnections settle.
      window.to = Date.now() + 5000;
      log(`fault ${faultCount}: ${target} ${target === 'nats' || target === 'postgres' ? 'restarted' : 'SIGKILLed and restarted'}; healthy again after ${((Date.now() - window.from) / 1000).toFixed(1)}s (at ${elapsed()}s)`);
    }
  };

  const watching = bulkWatch();
  await Promise.all([screenLoop(0), screenLoop(1), screenLoop(2), uploadLoop(), reviewLoop(), bulkTask(), listUpdate(), faults()]);
  log(`workload over at ${elapsed()}s: ${stats.requests} requests; waiting for the bulk job, re-screens and webhooks to settle...`);

  // --- Settle: the bulk job completes, monitoring has re-screened, webhook deliveries are done.
  const settleUntil = Date.now() + 150_000;
  const q = async (text, params = []) => (await db.query(text, params)).rows;
  for (;;) {
    const [job] = bulk ? await q('SELECT status, processed, total FROM gateway.bulk_jobs WHERE id = $1', [bulk.jobId]) : [{ status: 'completed' }];
    const [open] = await q("SELECT count(*)::int AS n FROM monitoring.webhook_deliveries WHERE status NOT IN ('delivered', 'failed')");
    const [alerts] = await q('SELECT count(*)::int AS n FROM monitoring.monitoring_alerts WHERE monitored_entity_id = $1', [entities[0]]);
    if (job?.status === 'completed' && open.n === 0 && alerts.n > 0) break;
    if (Date.now() > settleUntil) {
      log(`still unsettled after 150 s: bulk ${JSON.stringify(job)}, ${open.n} webhook deliveries open, ${alerts.n} alerts for ${NEW_NAME}`);
      break;
    }
    await sleep(1000);
  }
  // Receivers see a delivery a moment after the row says delivered.
  await sleep(1500);
  await watching;

  // --- The checks.
  const lost = [];
  const duplicated = [];
  const clientId = client.id;

  // Single screens: each accepted one logged once under its request id; nothing logged for the others twice.
  const logs = await q("SELECT id, request_id FROM screening.screening_logs WHERE client_id = $1 AND kind = 'single'", [clientId]);
  const byRequest = new Map();
  for (const row of logs) byRequest.set(row.request_id, [...(byRequest.get(row.request_id) ?? []), row.id]);
  const logIds = new Set(logs.map((r) => r.id));
  for (const s of screens.filter((s) => s.screeningId)) if (!logIds.has(s.screeningId)) lost.push(`screening log ${s.screeningId}`);
  for (const [requestId, ids] of byRequest) if (ids.length > 1) duplicated.push(`screening logs ${ids.join(', ')} for one request ${requestId}`);
  const unanswered = screens.filter((s) => s.unanswered).length;

  // The bulk job: N results, each row once.
  if (bulk) {
    const [r] = await q('SELECT count(*)::int AS n, count(DISTINCT row_index)::int AS d FROM gateway.bulk_job_results WHERE job_id = $1', [bulk.jobId]);
    const [job] = await q('SELECT status, processed, total FROM gateway.bulk_jobs WHERE id = $1', [bulk.jobId]);
    bulk.results = r.d;
    if (r.d < bulk.total) lost.push(`bulk job ${bulk.jobId}: ${r.d}/${bulk.total} results (${job?.status})`);
    if (r.n > r.d) duplicated.push(`bulk job ${bulk.jobId}: ${r.n - r.d} duplicate result rows`);
    // The job's chunks carry its request id: its logs are the ones under that id (client-list
    // uploads screen their entries as bulk requests too, under their own request ids).
    const [bulkLogs] = await q('SELECT count(*)::int AS n FROM screening.screening_logs WHERE client_id = $1 AND request_id = $2', [clientId, bulk.requestId]);
    bulk.logs = bulkLogs.n;
    if (bulkLogs.n > bulk.total) duplicated.push(`bulk job: ${bulkLogs.n} screening logs for ${bulk.total} names`);
    if (bulkLogs.n < bulk.total) lost.push(`bulk job: ${bulkLogs.n} screening logs for ${bulk.total} names`);
  } else lost.push('the bulk job was never accepted');

  // Audit: every screening log has exactly one audit event; every decision one audit row.
  const auditRows = await q('SELECT screening_id, count(*)::int AS n FROM audit.screening_events WHERE client_id = $1 GROUP BY 1', [clientId]);
  const audited = new Map(auditRows.map((r) => [r.screening_id, r.n]));
  const allLogs = await q('SELECT id FROM screening.screening_logs WHERE client_id = $1', [clientId]);
  let auditLost = 0;
  for (const { id } of allLogs) {
    const n = audited.get(id) ?? 0;
    if (n === 0) auditLost += 1;
    if (n > 1) duplicated.push(`audit: ${n} events for screening ${id}`);
  }
  if (auditLost) lost.push(`audit: ${auditLost} screening logs without an audit event`);
  const decided = decisions.filter((d) => d.status === 200);
  // A remembered approval writes a second row of its own (decision 'memory.created'): the decision is counted apart.
  const decisionRows = await q(
    "SELECT review_id, count(*)::int AS n FROM audit.review_decisions WHERE client_id = $1 AND decision NOT LIKE 'memory.%' GROUP BY 1",
    [clientId],
  );
  const memoryRows = await q(
    "SELECT review_id, count(*)::int AS n FROM audit.review_decisions WHERE client_id = $1 AND decision = 'memory.created' GROUP BY 1",
    [clientId],
  );
  for (const r of memoryRows) if (r.n > 1) duplicated.push(`audit: ${r.n} memory rows for review ${r.review_id}`);
  const decisionAudit = new Map(decisionRows.map((r) => [r.review_id, r.n]));
  for (const d of decided) {
    const n = decisionAudit.get(d.reviewId) ?? 0;
    if (n === 0) lost.push(`audit: no decision row for review ${d.reviewId}`);
    if (n > 1) duplicated.push(`audit: ${n} decision rows for review ${d.reviewId}`);
  }
  const undecided = await q("SELECT id FROM screening.pending_reviews WHERE id = ANY($1::uuid[]) AND status = 'pending'", [decided.map((d) => d.reviewId)]);
  for (const r of undecided) lost.push(`review ${r.id} accepted a decision but is still pending`);

  // Client lists: each accepted upload exists once; nothing beyond what was sent.
  const lists = await q("SELECT name, count(*)::int AS n FROM monitoring.client_lists WHERE client_id = $1 AND name LIKE 'resilience-list-%' GROUP BY 1", [clientId]);
  const listCount = new Map(lists.map((r) => [r.name, r.n]));
  for (const u of uploads.filter((u) => u.status >= 200 && u.status < 300)) if (!listCount.get(u.name)) lost.push(`client list ${u.name}`);
  for (const [name, n] of listCount) if (n > 1) duplicated.push(`client list ${name} stored ${n} times`);
  // Each stored upload's entries were screened once. Counted by name (each upload's names are its
  // own; the bulk job's, which overlap, are left out by its request id): monitoring's scheduled
  // pass checks every due entity whichever upload kicked it, so its screens carry no upload's id.
  const uploadNames = (u) => NAMES.map((n) => `${n} ${u.name.slice('resilience-list-'.length)}`);
  const uploadLogs = await q(
    "SELECT searched_name, count(*)::int AS n FROM screening.screening_logs WHERE client_id = $1 AND kind = 'bulk' AND searched_name = ANY($2::text[]) AND request_id IS DISTINCT FROM $3 GROUP BY 1",
    [clientId, uploads.flatMap(uploadNames), bulk?.requestId ?? ''],
  );
  const screenedByName = new Map(uploadLogs.map((r) => [r.searched_name, r.n]));
  for (const u of uploads) {
    const n = uploadNames(u).reduce((sum, name) => sum + (screenedByName.get(name) ?? 0), 0);
    if (n > u.entries) duplicated.push(`client list ${u.name}: ${n} screenings for ${u.entries} entries`);
  }
  const otherBulk = await q(
    "SELECT count(*)::int AS n FROM screening.screening_logs WHERE client_id = $1 AND kind = 'bulk' AND request_id IS DISTINCT FROM $2 AND searched_name <> ALL($3::text[])",
    [clientId, bulk?.requestId ?? '', uploads.flatMap(uploadNames)],
  );
  // Monitoring's own re-screens (the list update, scheduled checks) log under their own request ids.
  if (otherBulk[0].n) log(`${otherBulk[0].n} bulk screening logs from monitoring's own re-screens`);

  // Monitoring: the list update's new entry raised exactly one alert for the entity that matches it.
  const alerts = await q('SELECT id, list_version_id FROM monitoring.monitoring_alerts WHERE monitored_entity_id = $1', [entities[0]]);
  if (alerts.length === 0) lost.push(`monitoring: no alert for ${NEW_NAME} after the list update`);
  if (alerts.length > 1) duplicated.push(`monitoring: ${alerts.length} alerts for ${NEW_NAME} after one list update`);
  const allAlerts = await q('SELECT monitored_entity_id, match_fingerprint, list_version_id, count(*)::int AS n FROM monitoring.monitoring_alerts WHERE client_id = $1 GROUP BY 1, 2, 3 HAVING count(*) > 1', [clientId]);
  for (const a of allAlerts) duplicated.push(`monitoring: ${a.n} alerts for one entity, match and list version`);

  // Webhooks: every delivery the database says was made reached the receiver (at least once, same id);
  // no event was queued twice; the receiver saw nothing the database does not know.
  const deliveries = await q('SELECT id::text, event_type, event_key, status FROM monitoring.webhook_deliveries WHERE client_id = $1', [clientId]);
  const receivedIds = new Set(receiver.received.map((r) => r.id));
  const knownIds = new Set(deliveries.map((d) => d.id));
  let webhookLost = 0;
  for (const d of deliveries) if (!receivedIds.has(d.id)) webhookLost += 1;
  if (webhookLost) lost.push(`webhooks: ${webhookLost} of ${deliveries.length} deliveries never reached the receiver`);
  const perEvent = new Map();
  for (const d of deliveries) perEvent.set(`${d.event_type}:${d.event_key}`, (perEvent.get(`${d.event_type}:${d.event_key}`) ?? 0) + 1);
  for (const [event, n] of perEvent) if (n > 1) duplicated.push(`webhooks: event ${event} queued ${n} times`);
  const strangers = [...receivedIds].filter((id) => !knownIds.has(id));
  if (strangers.length) duplicated.push(`webhooks: ${strangers.length} deliveries with ids the database does not know`);
  const redelivered = receiver.received.length - receivedIds.size;

  // Quota: what the gateway counted equals the screens it answered (each single screen, each bulk
  // name), exactly. Each quota lease is settled to the screens screening logged under it (issue
  // #24): the live gateway's on SIGTERM, the killed one's by a live gateway's sweep once it expired.
  // So: stop the gateway (it settles its own lease), start it again (its sweep settles the rest),
  // and wait until no lease of the client is left unsettled.
  await stack.kill('gateway', 'SIGTERM');
  stack.restart('gateway');
  await waitHealthy();
  const leasesUntil = Date.now() + 90_000;
  let open;
  for (;;) {
    [open] = await q('SELECT count(*)::int AS n FROM gateway.quota_leases WHERE client_id = $1', [clientId]);
    if (open.n === 0 || Date.now() > leasesUntil) break;
    await sleep(1000);
  }
  const [counted] = await q('SELECT coalesce(sum(used), 0)::int AS used FROM gateway.quota_usage WHERE client_id = $1', [clientId]);
  const usage = { used: counted.used };
  const answered = screens.filter((s) => s.screeningId).length + (bulk?.total ?? 0);
  const overCount = usage.used - answered;
  const quotaOk = overCount === 0 && open.n === 0;
  // On a mismatch, which screens screening logged (answered) that the client never saw answered, and how they ended for it.
  if (!quotaOk) {
    const seen = new Set(screens.filter((s) => s.screeningId).map((s) => s.requestId));
    const unseen = logs.filter((l) => !seen.has(l.request_id));
    const endings = unseen.map((l) => screens.find((s) => s.requestId === l.request_id)?.refused ?? 'not a suite screen');
    if (unseen.length) log(`quota: ${unseen.length} single screens logged but not answered to the client (${[...new Set(endings)].join(', ')})`);
  }
  // The audit chains verify (`npm run audit:verify`'s own program).
  const verify = spawnSync(process.execPath, [join(ROOT, 'services', 'audit', 'dist', 'src', 'verify.js')], {
    env: { ...process.env, DATABASE_URL: postgres.url, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const chainsOk = verify.status === 0;

  await db.end();

  // --- The report.
  log(`single screens: ${screens.filter((s) => s.screeningId).length} answered, ${unanswered} unanswered after 90 s of retries; ${stats.retries} retries`);
  log(`bulk job: ${bulk?.results ?? 0}/${bulk?.total ?? BULK_NAMES} results, ${bulk?.logs ?? 0} screening logs${bulk?.completedAt ? `, completed at ${bulk.completedAt}s` : ''}${BULK_NAMES < 10_000 ? ` (RESILIENCE_BULK_NAMES=${BULK_NAMES}: smaller than the full 10,000)` : ''}`);
  log(`client lists: ${uploads.filter((u) => u.status < 300).length} uploads accepted; review decisions: ${decided.length}; monitoring alerts for the new entry: ${alerts.length}${listUpdatedAt ? '' : ' (no list update)'}`);
  log(`webhooks: ${deliveries.length} deliveries, ${receiver.received.length} received (${redelivered} redelivered with the same id)`);
  log(`quota: ${usage.used} counted, ${answered} screens answered (${overCount === 0 ? 'equal' : overCount > 0 ? `${overCount} OVER` : `${-overCount} UNDER`}${open.n ? `; ${open.n} leases still unsettled after 90 s` : ''})${quotaOk ? '' : ' — MISMATCH'}; audit chains: ${chainsOk ? 'verified' : `FAILED\n${verify.stdout}${verify.stderr}`}`);
  for (const l of lost) process.stdout.write(`  LOST ${l}\n`);
  for (const d of duplicated.slice(0, 30)) process.stdout.write(`  DUPLICATED ${d}\n`);
  for (const e of stats.errorsOutside.slice(0, 20)) process.stdout.write(`  ERROR OUTSIDE A FAULT WINDOW ${e}\n`);
  if (!quotaOk) lost.push('quota');
  if (!chainsOk) lost.push('audit chain');
  if (unanswered) lost.push(`${unanswered} screens never answered`);

  const outside = stats.errorsOutside.length;
  const line =
    `resilience: ${stats.requests} requests, ${faultCount} faults, lost ${lost.length}, duplicated ${duplicated.length}, ` +
    `errors ${stats.errors} (${outside === 0 ? 'only during the fault windows' : `${outside} outside the fault windows`})`;
  process.stdout.write(`\n${line}\n`);
  log(`${elapsed()}s in all`);
  writeSummary(lost.length === 0 && duplicated.length === 0 && outside === 0);
  return lost.length === 0 && duplicated.length === 0 && outside === 0;

  async function waitHealthy() {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${gatewayUrl}/health`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // restarting
      }
      await sleep(250);
    }
    throw new Error('the stack did not turn healthy within 90 s of a fault');
  }
}

function writeSummary(passed) {
  const dir = process.env.VIGIL_TEST_SUMMARY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `resilience-${process.pid}.json`), JSON.stringify({ rootDir: 'resilience', passed: passed ? 1 : 0, failed: passed ? 0 : 1, skipped: 0 }));
}

main().catch((error) => {
  process.stderr.write(`resilience suite could not run: ${error.stack ?? error.message}\n`);
  writeSummary(false);
  process.exit(2);
});
