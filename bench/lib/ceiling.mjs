// The ceiling of POST /api/v1/screen on this host: what the two-process layout costs with no
// work at all. An edge on bare node:http forwards each request body over NATS (the envelope the
// gateway sends) to a responder in a second Node process, which answers a fixed reply of the real
// answer's size; the edge writes the reply bytes back. No framework, no auth, no limiter, no quota,
// no matching, no log: the real path can only be slower, and real / ceiling says by how much
// (a ratio stays comparable when the shared machine's speed moves between runs).
import autocannon from 'autocannon';
import { connect } from '@nats-io/transport-node';
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { meterCpu, perRequest, screenLoad, startPrivateNats, stopChildren } from './screen-load.mjs';

const SUBJECT = 'ceiling.v1.screen';
const self = fileURLToPath(import.meta.url);
/** No Postgres on this path: nothing to meter there. */
const noDatabase = { query: async () => ({ rows: [] }) };

/** A JSON reply of exactly `bytes` bytes (at least the envelope's), in the envelope Nest's NATS server writes. */
export function fixedReply(bytes, id) {
  const head = `{"response":{"results":"`;
  const tail = `"},"isDisposed":true,"id":"${id}"}`;
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length - 14)) + tail;
}

async function responder() {
  const nc = await connectRetrying(process.env.CEILING_NATS_URL);
  const bytes = Number(process.env.CEILING_REPLY_BYTES);
  const sub = nc.subscribe(SUBJECT, { queue: 'screening' });
  process.send('ready');
  for await (const msg of sub) {
    // Parse the request as a handler must; answer the same size every time.
    const { id } = msg.json();
    msg.respond(fixedReply(bytes, id));
  }
}

async function edge() {
  const nc = await connectRetrying(process.env.CEILING_NATS_URL);
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const entity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const id = String(++seq);
        const reply = await nc.request(SUBJECT, JSON.stringify({ pattern: SUBJECT, data: { entity }, id }), {
          timeout: 10_000,
        });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(responseOf(reply.data, id));
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

const PREFIX = Buffer.byteLength('{"response":');

/** The answer inside a reply envelope, as a view of its bytes: passed through as the gateway passes screening's. */
export function responseOf(data, id) {
  const suffix = Buffer.byteLength(`,"isDisposed":true,"id":"${id}"}`);
  return Buffer.from(data.buffer, data.byteOffset + PREFIX, data.length - PREFIX - suffix);
}

export async function connectRetrying(servers) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect({ servers });
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Runs the ceiling: its own nats-server, responder and edge, warmed for 3 s, then `duration` s of
 * `connections` over `bodies`. Answers autocannon's figures and CPU ms per request per process.
 */
export async function runCeiling({ bodies, connections, duration, replyBytes }) {
  const nats = await startPrivateNats();
  const env = { ...process.env, CEILING_NATS_URL: nats.url, CEILING_REPLY_BYTES: String(replyBytes) };
  const children = [];
  const start = (role) => {
    const child = fork(self, ['--ceiling-role', role], { env, execArgv: [] });
    children.push(child);
    return new Promise((r, j) => (child.once('message', r), child.once('exit', () => j(new Error(`${role} exited`)))));
  };
  try {
    await start('responder');
    const port = await start('edge');
    const opts = (d) =>
      screenLoad({ url: `http://127.0.0.1:${port}/api/v1/screen`, key: 'ceiling', bodies, connections, duration: d });
    await autocannon(opts(3));
    const [responderProc, edgeProc] = children;
    const { result, used } = await meterCpu(
      { edge: edgeProc.pid, responder: responderProc.pid, 'nats-server': nats.pid },
      noDatabase,
      '',
      () => autocannon(opts(duration)),
    );
    delete used.postgres;
    delete used.redis;
    const n = Math.max(1, result.requests.total);
    const { each, total } = perRequest(used, n);
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      bytesPerResponse: Math.round(result.throughput.total / n),
      cpuMsPerRequest: each,
      cpuMsTotal: Math.round(total * 1000) / 1000,
    };
  } finally {
    await stopChildren(children);
    nats.stop();
  }
}

const role = process.argv.indexOf('--ceiling-role');
if (role >= 0) {
  const which = process.argv[role + 1];
  (which === 'edge' ? edge() : responder()).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
