#!/usr/bin/env node
// CPU per event of the outbox relay's JetStream publishes, in this process and in nats-server:
// nats.js js.publish (a request per event, as the relay published before) against
// EventPublisher.publishStored (one acknowledgement inbox, one deadline per window), windows of 64
// events of a screened event's size with a message id and a traceparent, against a private
// nats-server. Build the platform first (npm run build).
//
//   node bench/bench-relay-publish.mjs [--events 20000] [--rounds 2]
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { EventPublisher, Nats } from '@vigil/platform';
import { startNats } from '@vigil/platform/testing';
import { readFileSync } from 'node:fs';
import { commandLine } from './lib/screen-load.mjs';

const { arg } = commandLine();
const EVENTS = Number(arg('--events', '20000'));
const ROUNDS = Number(arg('--rounds', '2'));
const WINDOW = 64;

const nats = await startNats();
const serverPid = nats.pid;
/** nats-server's user + system CPU so far, in ms (clock ticks of 10 ms). */
const serverCpuMs = () => {
  const fields = readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

await (await jetstreamManager(nats.nc)).streams.add({ name: 'RELAY_BENCH', subjects: ['relay-bench.>'] });
const js = jetstream(nats.nc);
const publisher = new EventPublisher(new Nats(nats.nc));
const json = JSON.stringify({
  eventId: crypto.randomUUID(),
  screeningId: crypto.randomUUID(),
  kind: 'single',
  clientId: 'client-bench',
  tier: 'large',
  requestId: 'r'.repeat(20),
  searchedName: 'Viktor Bout',
  searchedEmail: null,
  matchFound: false,
  status: 'clear',
  score: 0.42,
  topEntityId: 'ofac-sdn:101',
  matchedName: 'BOUT, Viktor',
  sourceList: 'ofac_sdn',
  isAlert: false,
  listVersions: Array.from({ length: 8 }, (_, i) => ({ source: `source-${i}`, versionId: i + 1 })),
  createdAt: new Date().toISOString(),
});
const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
let n = 0;
const event = () => ({ subject: 'relay-bench.screened', json, id: `event-${++n}`, traceparent });

async function measure(label, publishWindow) {
  const cpu = process.cpuUsage();
  const server = serverCpuMs();
  for (let i = 0; i < EVENTS; i += WINDOW) await publishWindow(Array.from({ length: WINDOW }, event));
  const used = process.cpuUsage(cpu);
  const us = (micros) => (micros / EVENTS).toFixed(1);
  console.log(`${label}: publisher ${us(used.user + used.system)} µs/event, nats-server ${us((serverCpuMs() - server) * 1000)} µs/event`);
}

for (let round = 0; round < ROUNDS; round++) {
  await measure('js.publish   ', (events) =>
    Promise.allSettled(
      events.map((e) => {
        const hdrs = headers();
        hdrs.set('traceparent', e.traceparent);
        return js.publish(e.subject, e.json, { timeout: 5000, headers: hdrs, msgID: e.id });
      }),
    ),
  );
  await measure('publishStored', (events) => publisher.publishStored(events));
}
await nats.stop();
