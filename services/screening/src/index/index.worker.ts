import { parentPort, workerData } from 'node:worker_threads';
import { resolveConfig, type MatchingConfig } from '@vigil/matching';
import { buildIndex, screenBuilt, screenToWire, type Built } from './in-process.engine.js';
import type { FromWorker, ToWorker } from './index-workers.js';

// An index worker: builds what the engine sends and screens bulk chunks against the build the
// request names, so a worker never answers from other list versions than the engine reports.
const config: MatchingConfig = resolveConfig((workerData as { config: Partial<MatchingConfig> }).config);
const builds = new Map<number, Built>();
const port = parentPort!;
const reply = (message: FromWorker) => port.postMessage(message);
/** Names screened after a first build so the JIT has compiled the matching code before a real request needs it. */
const WARM_UP_NAMES = 300;

function warmUp(built: Built): void {
  const scope = { sources: [...built.numbers.keys()], limit: 10 };
  const step = Math.max(1, Math.floor(built.all.length / WARM_UP_NAMES));
  for (let i = 0; i < built.all.length; i += step) {
    const name = built.all[i]!.names[0]?.full;
    if (name) screenBuilt(built, { name }, scope);
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'load':
      try {
        const built = buildIndex(new Map(message.partitions), config, message.generation);
        // A fresh thread runs the matching code cold (several times slower): warm it once.
        if (builds.size === 0) warmUp(built);
        builds.set(message.generation, built);
        reply({ type: 'loaded', generation: message.generation });
      } catch (error) {
        reply({ type: 'load-failed', generation: message.generation, error: reason(error) });
      }
      return;
    case 'retire':
      for (const generation of builds.keys()) if (generation < message.below) builds.delete(generation);
      return;
    case 'screen': {
      const built = builds.get(message.generation);
      if (!built) {
        reply({ type: 'screen-failed', id: message.id, error: `build ${message.generation} is not loaded here` });
        return;
      }
      try {
        reply({ type: 'screened', id: message.id, results: screenToWire(built, message.queries, message.scope) });
      } catch (error) {
        reply({ type: 'screen-failed', id: message.id, error: reason(error) });
      }
      return;
    }
  }
});
