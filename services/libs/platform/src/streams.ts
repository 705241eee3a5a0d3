import { RetentionPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A durable stream a service publishes to (subjects from `proto`'s `streams`), with how long it keeps messages. */
export type StreamSpec = {
  name: string;
  subjects: readonly string[];
  maxAgeDays: number;
  /** `workqueue`: each message goes to one consumer and is removed once acknowledged. */
  retention?: 'limits' | 'workqueue';
};

/**
 * Creates the streams a service publishes to, or adds subjects an older version of the stream
 * lacks: idempotent, and safe when replicas boot together (a stream another replica created
 * between the look-up and the add is fine). The one routine every publisher of a stream runs
 * at boot, so consumers can attach durable consumers whenever they start.
 */
export async function ensureStreams(jsm: JetStreamManager, wanted: readonly StreamSpec[]): Promise<void> {
  for (const stream of wanted) {
    const subjects = [...stream.subjects];
    try {
      const info = await jsm.streams.info(stream.name);
      const missing = subjects.filter((subject) => !info.config.subjects?.includes(subject));
      if (missing.length > 0)
        await jsm.streams.update(stream.name, {
          ...info.config,
          subjects: [...(info.config.subjects ?? []), ...missing],
        });
      continue;
    } catch (error) {
      if (!/stream not found/i.test(messageOf(error))) throw error;
    }
    try {
      await jsm.streams.add({
        name: stream.name,
        subjects,
        max_age: nanos(stream.maxAgeDays * DAY_MS),
        retention: stream.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
        duplicate_window: nanos(2 * 60 * 1000),
      });
    } catch (raced) {
      // Another replica created it between our look-up and our add.
      if (!/already in use|exists/i.test(messageOf(raced))) throw raced;
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
