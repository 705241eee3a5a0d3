import type { MatchingConfig } from '@vigil/matching';
import { Worker } from 'node:worker_threads';
import type { EngineMatch, EngineQuery, EngineScope, PartitionLoad } from './candidate-index.js';

/** A match as a worker sends it back: the entity by its position in the build, not a copy of it. */
export type WireMatch = Omit<EngineMatch, 'entity'> & { position: number };

export type ToWorker =
  | { type: 'load'; generation: number; partitions: Array<[string, PartitionLoad]> }
  | { type: 'retire'; below: number }
  | { type: 'screen'; id: number; generation: number; queries: readonly EngineQuery[]; scope: EngineScope };

export type FromWorker =
  | { type: 'loaded'; generation: number }
  | { type: 'load-failed'; generation: number; error: string }
  | { type: 'screened'; id: number; results: WireMatch[][] }
  | { type: 'screen-failed'; id: number; error: string };

type Task = {
  id: number;
  generation: number;
  queries: readonly EngineQuery[];
  scope: EngineScope;
  resolve: (results: WireMatch[][]) => void;
  reject: (error: Error) => void;
};

type Slot = {
  worker: Worker;
  busy: Task | null;
  loads: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
};

/**
 * Chunks per worker a bulk request is cut into, so uneven names and concurrent requests even out;
 * small enough (about 60 names of 1,000 with one worker) that a chunk on the service's own thread
 * holds single screens up for tens of milliseconds, not the whole request.
 */
const CHUNKS_PER_WORKER = 8;

/**
 * Screens a chunk on the engine's own thread against its current build; null when `generation`
 * is not that build (a swap is under way), which leaves the chunk to the workers.
 */
export type LocalScreen = (generation: number, queries: readonly EngineQuery[], scope: EngineScope) => WireMatch[][] | null;

/**
 * Worker threads that each hold a copy of the engine's current build (the index is a graph of
 * JS objects: it cannot be shared between threads, only rebuilt in each). Bulk requests are cut
 * into chunks that idle workers take in turn. A worker that dies is replaced and given the
 * latest build; until then its chunks fail and the engine screens them itself.
 *
 * With `local`, the engine's own thread takes chunks too, one per event-loop turn: otherwise it
 * would sit idle for the whole request, and on a two-core host one worker plus this thread use
 * both cores where one worker alone uses one.
 */
export class IndexWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private latest: { generation: number; partitions: Array<[string, PartitionLoad]> } | null = null;
  private nextId = 0;
  private closed = false;
  private localBusy = false;
  /** A build this thread said it does not serve: its chunks are left to the workers. */
  private localRefused = -1;

  constructor(
    private readonly size: number,
    private readonly config: Partial<MatchingConfig>,
    private readonly local?: LocalScreen,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Has every worker build `partitions` as `generation`; resolves when all have. */
  async load(generation: number, partitions: Map<string, PartitionLoad>): Promise<void> {
    this.latest = { generation, partitions: [...partitions] };
    await Promise.all(this.slots.map((slot) => this.loadInto(slot, generation, this.latest!.partitions)));
  }

  /**
   * Frees the builds before `generation` once the engine serves it. Chunks already posted for
   * an older build were queued before this message, so they are answered first.
   */
  retire(generation: number): void {
    for (const slot of this.slots) this.post(slot, { type: 'retire', below: generation });
  }

  /** Screens `queries` against build `generation`, split across the workers; results in query order. */
  async screenMany(generation: number, queries: readonly EngineQuery[], scope: EngineScope): Promise<WireMatch[][]> {
    const chunk = Math.ceil(queries.length / ((this.size + (this.local ? 1 : 0)) * CHUNKS_PER_WORKER));
    const parts: Array<Promise<WireMatch[][]>> = [];
    for (let start = 0; start < queries.length; start += chunk) {
      const slice = queries.slice(start, start + chunk);
      parts.push(
        new Promise((resolve, reject) => {
          this.queue.push({ id: ++this.nextId, generation, queries: slice, scope, resolve, reject });
        }),
      );
    }
    this.dispatch();
    return (await Promise.all(parts)).flat();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('index workers closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./index.worker.js', import.meta.url), { workerData: { config: this.config } });
    // Idle workers must not keep a stopping process alive.
    worker.unref();
    const slot: Slot = { worker, busy: null, loads: new Map() };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', (code) => this.replace(slot, new Error(`index worker exited with code ${code}`)));
    return slot;
  }

  private loadInto(slot: Slot, generation: number, partitions: Array<[string, PartitionLoad]>): Promise<void> {
    return new Promise((resolve, reject) => {
      slot.loads.set(generation, { resolve, reject });
      this.post(slot, { type: 'load', generation, partitions });
    });
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'loaded':
      case 'load-failed': {
        const waiter = slot.loads.get(message.generation);
        slot.loads.delete(message.generation);
        if (message.type === 'loaded') waiter?.resolve();
        else waiter?.reject(new Error(message.error));
        return;
      }
      case 'screened':
      case 'screen-failed': {
        const task = slot.busy;
        if (!task || task.id !== message.id) return;
        slot.busy = null;
        if (message.type === 'screened') task.resolve(message.results);
        else task.reject(new Error(message.error));
        this.dispatch();
        return;
      }
    }
  }

  private dispatch(): void {
    this.dispatchLocal();
    for (const slot of this.slots) {
      if (slot.busy || this.queue.length === 0) continue;
      const task = this.queue.shift()!;
      slot.busy = task;
      this.post(slot, {
        type: 'screen',
        id: task.id,
        generation: task.generation,
        queries: task.queries,
        scope: task.scope,
      });
    }
  }

  /** Gives this thread the next chunk, after the event loop has had a turn. */
  private dispatchLocal(): void {
    const local = this.local;
    const next = this.queue[0];
    if (!local || this.localBusy || this.closed || !next || next.generation === this.localRefused) return;
    this.localBusy = true;
    setImmediate(() => {
      this.localBusy = false;
      const task = this.queue[0];
      if (!task || task.generation === this.localRefused) return;
      try {
        const results = local(task.generation, task.queries, task.scope);
        // Not the build this thread serves (a swap is under way): the chunk stays for a worker.
        if (results === null) this.localRefused = task.generation;
        else {
          this.queue.shift();
          task.resolve(results);
        }
      } catch (error) {
        this.queue.shift();
        task.reject(error instanceof Error ? error : new Error(String(error)));
      }
      this.dispatch();
    });
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }

  /** Fails what the dead worker held, starts another with the latest build. */
  private replace(slot: Slot, error: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    slot.busy?.reject(error);
    for (const waiter of slot.loads.values()) waiter.reject(error);
    if (this.closed) return;
    const fresh = this.spawn();
    this.slots[i] = fresh;
    void slot.worker.terminate();
    if (this.latest) void this.loadInto(fresh, this.latest.generation, this.latest.partitions).catch(() => undefined);
    this.dispatch();
  }
}
