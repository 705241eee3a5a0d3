#!/usr/bin/env node
// npm run bench:ceiling — the no-work edge → NATS → responder path (bench/lib/ceiling.mjs) with
// bench:gateway's load: the same screening bodies, the same connections, a reply of the real
// answer's size. bench:gateway runs it in the same invocation and prints real / ceiling.
//
//   node bench/bench-ceiling.mjs [--duration 20] [--connections 8] [--reply-bytes 9800] [--json]
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCeiling } from './lib/ceiling.mjs';
import { loadAverage } from './lib/host.mjs';
import { commandLine, screenBodies } from './lib/screen-load.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { arg, flag } = commandLine();
const ceiling = await runCeiling({
  bodies: screenBodies(root),
  connections: Number(arg('--connections', '8')),
  duration: Number(arg('--duration', '20')),
  replyBytes: Number(arg('--reply-bytes', '9800')),
});
const summary = { ...ceiling, cpus: cpus().length, node: process.version, loadAverage: loadAverage() };
if (flag('--json')) console.log(JSON.stringify(summary));
else
  console.log(
    `ceiling (edge → NATS → responder, no work): ${summary.requestsPerSecond} req/s, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, ` +
      `${summary.non2xx} non-2xx, ${summary.bytesPerResponse} bytes per response\n` +
      `  CPU per request (ms): ${Object.entries(summary.cpuMsPerRequest)
        .map(([name, ms]) => `${name} ${ms}`)
        .join(', ')}; total ${summary.cpuMsTotal}\n` +
      `  load average ${summary.loadAverage.join(' ')} on ${summary.cpus} cores, Node ${summary.node}`,
  );
