// Runs one scenario of scenarios.mjs against a gateway: an open-model arrival scheduler (k6's
// ramping-arrival-rate: the rate is a function of time, a slow answer does not delay the next
// arrival; an arrival that finds every connection of its route busy is dropped and counted, as
// k6's dropped_iterations) over node:http keep-alive connections. It records every answer with
// its start time, so the report can draw latency and throughput over time, and judges each
// route against its thresholds.
import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { randomUUID } from 'node:crypto';
import { NAMES, ROUTES, peakRate, rateAt, routeSeconds, startOffsets } from './scenarios.mjs';

const TICK_MS = 5;
const REQUEST_TIMEOUT_MS = 10_000;
const SESSION_REFRESH_MS = 10 * 60_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One HTTP exchange; resolves with status, latency, the headers and the body (never rejects). */
function exchange(client, method, path, headers, body) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = client.request(
      {
        method,
        host: client.host,
        port: client.port,
        path,
        agent: client.agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            ms: performance.now() - started,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started, headers: {}, text: '' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, headers: {}, text: String(error.code ?? error.message) }),
    );
    req.end(body);
  });
}

function httpClient(baseUrl, maxSockets) {
  const url = new URL(baseUrl);
  const https = url.protocol === 'https:';
  return {
    host: url.hostname,
    port: Number(url.port || (https ? 443 : 80)),
    request: https ? httpsRequest : httpRequest,
    agent: new (https ? HttpsAgent : Agent)({ keepAlive: true, maxSockets }),
  };
}

/** The problem+json `code` of a refused answer, when there is one (RATE_LIMITED vs QUOTA_EXCEEDED). */
function problemCode(text) {
  try {
    return JSON.parse(text).code;
  } catch {
    return undefined;
  }
}

/** What a failed exchange was: the problem code of a refusal, the socket error (timeout, ECONNRESET) of no answer. */
const failureCode = (res) => (res.status === 0 ? res.text : res.status >= 400 ? problemCode(res.text) : undefined);

let counter = 0;
function bodyOf(spec) {
  counter += 1;
  if (spec.kind === 'screen') return { name: NAMES[counter % NAMES.length] };
  if (spec.kind === 'bulk')
    return { names: Array.from({ length: spec.names }, (_, i) => `${NAMES[(counter + i) % NAMES.length]} ${i}`) };
  // A distinct name per write: the route creates a row, a repeated name would test the duplicate path.
  return { entity_name: `Load Test Entity ${randomUUID().slice(0, 8)}` };
}

/** Every answer of one metric (a route, a job's polls, a job's completion) as parallel arrays. */
class Samples {
  constructor() {
    this.at = [];
    this.ms = [];
    this.status = [];
    this.codes = {};
    /** When arrivals found every connection busy and were not sent (k6: dropped_iterations). */
    this.droppedAt = [];
  }

  add(atMs, ms, status, code) {
    this.at.push(atMs);
    this.ms.push(ms);
    this.status.push(status);
    if (code) this.codes[code] = (this.codes[code] ?? 0) + 1;
  }
}

/**
 * Sessions for the dashboard route: signed in with the password grant and signed in again before the
 * access token's usual 15 minutes run out (a soak outlives several).
 */
function sessions(client, credentials) {
  let token;
  let at = 0;
  return async () => {
    if (token && Date.now() - at < SESSION_REFRESH_MS) return token;
    if (!credentials?.email) throw new Error('the dashboard route needs LOAD_EMAIL and LOAD_PASSWORD (a client user)');
    const res = await exchange(
      client,
      'POST',
      '/auth/v1/token?grant_type=password',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: credentials.email, password: credentials.password }),
    );
    if (res.status !== 200) throw new Error(`signing in as ${credentials.email} answered ${res.status}: ${res.text}`);
    token = JSON.parse(res.text).access_token;
    at = Date.now();
    return token;
  };
}

/**
 * Runs `scenarioName` against `url`. `keys`: client API keys (rotated per request); `credentials`: a user of
 * the same client for the session routes. `timeScale`/`rateScale` shrink or grow the table's durations and
 * rates (a shortened soak on a developer's machine). `onProgress` hears one line per second.
 */
export async function runScenario({
  scenarioName,
  scenario,
  url,
  keys,
  credentials,
  timeScale = 1,
  rateScale = 1,
  onProgress = () => {},
}) {
  const offsets = startOffsets(scenario);
  const samples = {};
  const sample = (name) => (samples[name] ??= new Samples());
  const jobs = [];
  let keyTurn = 0;
  const nextKey = () => keys[keyTurn++ % keys.length];
  const session = sessions(httpClient(url, 2), credentials);
  const needsSession = Object.keys(scenario.routes).some((r) => ROUTES[r].credentials === 'session');
  if (needsSession) await session();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const inFlightWork = new Set();
  const track = (promise) => {
    inFlightWork.add(promise);
    promise.finally(() => inFlightWork.delete(promise));
  };
  const aborted = {};
  const breakpoint = scenario.breakpoint;

  async function fire(routeName, client) {
    const route = ROUTES[routeName];
    const headers = { 'content-type': 'application/json', 'x-request-id': randomUUID() };
    if (route.credentials === 'session') headers.authorization = `Bearer ${await session()}`;
    else headers['x-api-key'] = nextKey();
    const path = route.paths ? route.paths[counter++ % route.paths.length] : route.path;
    const body = route.body ? JSON.stringify(bodyOf(route.body)) : undefined;
    const at = now();
    const res = await exchange(client, route.method, path, headers, body);
    sample(routeName).add(at, res.ms, res.status, failureCode(res));
    if (route.poll && res.status === route.expect) await pollJob(routeName, route, client, headers, res, at);
  }

  async function pollJob(routeName, route, client, headers, submitted, submittedAt) {
    const { jobId } = JSON.parse(submitted.text);
    const path = route.poll.path.replace('{id}', encodeURIComponent(jobId));
    const deadline = submittedAt + route.poll.completion.timeoutSeconds * 1000;
    const job = { route: routeName, jobId, submittedAt, finishedAt: null, status: 'running' };
    jobs.push(job);
    const pollHeaders = { 'x-api-key': headers['x-api-key'] };
    while (now() < deadline) {
      await sleep(route.poll.everySeconds * 1000);
      const at = now();
      const res = await exchange(client, 'GET', path, pollHeaders);
      sample(`${routeName}.poll`).add(at, res.ms, res.status, failureCode(res));
      if (res.status !== route.poll.expect) continue;
      const state = JSON.parse(res.text);
      // 'completed' is the only end (BULK_JOB_STATUSES); rows that could not be screened are counted in `failed`.
      if (state.status === 'completed') {
        job.finishedAt = now();
        job.status = state.failed === 0 ? 'completed' : `completed, ${state.failed} rows failed`;
        sample(`${routeName}.job`).add(submittedAt, job.finishedAt - submittedAt, state.failed === 0 ? 200 : 500);
        return;
      }
    }
    job.status = 'timed out';
    sample(`${routeName}.job`).add(submittedAt, now() - submittedAt, 0);
  }

  /** Drives one route's arrivals from its start offset to the end of its stages. */
  async function drive(routeName) {
    const plan = scenario.routes[routeName];
    const maxInFlight = Math.max(4, Math.ceil(peakRate(plan) * rateScale * 2));
    const client = httpClient(url, maxInFlight);
    const seconds = routeSeconds(plan) * timeScale;
    await sleep(offsetOf(routeName) * 1000);
    const start = now();
    started[routeName] = start;
    // As k6's arrival-rate executors: the first arrival at the start, the next 1/rate later.
    let due = plan.start > 0 ? 1 : 0;
    let last = start;
    let inFlight = 0;
    const routeSample = sample(routeName);
    while (now() - start < seconds * 1000 && !aborted[routeName]) {
      const t = now();
      due += (rateAt(plan, (t - start) / 1000 / timeScale) * rateScale * (t - last)) / 1000;
      last = t;
      while (due >= 1) {
        due -= 1;
        if (inFlight >= maxInFlight) {
          routeSample.droppedAt.push(now());
          continue;
        }
        inFlight += 1;
        track(fire(routeName, client).finally(() => (inFlight -= 1)));
      }
      await sleep(TICK_MS);
    }
    return client;
  }

  // A sequential scenario's routes run back to back, and one stopped early hands over at once.
  const finished = {};
  const started = {};
  const offsetOf = (routeName) => (scenario.sequential ? 0 : offsets[routeName] * timeScale);
  const progress = setInterval(() => {
    const second = Math.floor(now() / 1000);
    const parts = Object.entries(samples).map(([name, s]) => {
      const recent = s.at.filter((a) => a >= now() - 1000).length;
      return `${name} ${recent}/s`;
    });
    onProgress(`t=${second}s ${parts.join(', ')}`);
    if (breakpoint) watchBreakpoint();
  }, 1000);

  function watchBreakpoint() {
    const windowMs = breakpoint.windowSeconds * 1000;
    for (const routeName of Object.keys(scenario.routes)) {
      if (aborted[routeName] || finished[routeName]) continue;
      const s = samples[routeName];
      if (!s) continue;
      const from = now() - windowMs;
      const recent = [];
      let failed = 0;
      for (let i = s.at.length - 1; i >= 0 && s.at[i] >= from; i--) {
        recent.push(s.ms[i]);
        if (s.status[i] !== ROUTES[routeName].expect && s.status[i] !== 429) failed += 1;
      }
      if (recent.length < 10) continue;
      recent.sort((a, b) => a - b);
      const p99 = recent[Math.min(recent.length - 1, Math.floor(recent.length * 0.99))];
      if (
        p99 > ROUTES[routeName].thresholds.p99Ms * breakpoint.abortP99Factor ||
        failed / recent.length > breakpoint.abortErrorRate
      )
        aborted[routeName] = { atSeconds: Math.round(now() / 1000), p99 };
    }
  }

  const clients = [];
  try {
    if (scenario.sequential) {
      for (const routeName of Object.keys(scenario.routes)) {
        clients.push(await drive(routeName));
        finished[routeName] = true;
        // The next route starts on an idle stack: the answers this one still owes come first.
        await Promise.allSettled([...inFlightWork]);
      }
    } else {
      clients.push(...(await Promise.all(Object.keys(scenario.routes).map(drive))));
    }
    await Promise.allSettled([...inFlightWork]);
  } finally {
    clearInterval(progress);
    for (const c of clients) c.agent.destroy();
  }
  return {
    scenario: scenarioName,
    url,
    startedAt: new Date(Date.now() - now()).toISOString(),
    seconds: now() / 1000,
    timeScale,
    rateScale,
    samples,
    jobs,
    aborted,
    routeStarts: started,
  };
}
