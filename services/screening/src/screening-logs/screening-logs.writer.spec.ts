import { jest } from '@jest/globals';
import type { OutboxRelay } from '../events/outbox.relay.js';
import type { ScreeningLogEntry } from './screening-log.js';
import type { ScreeningLogsRepository } from './screening-logs.repository.js';
import { ScreeningLogWriter } from './screening-logs.writer.js';

const entry = (id: string) => ({ id }) as ScreeningLogEntry;

function setup() {
  const written: string[][] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const repository = {
    record: jest.fn(async (entries: readonly ScreeningLogEntry[]) => {
      written.push(entries.map((e) => e.id));
      if (hold) await new Promise<void>((r) => (release = r));
      return new Set(entries.filter((e) => e.id.startsWith('late')).map((e) => e.id));
    }),
  };
  const relay = { nudge: jest.fn() };
  const sut = new ScreeningLogWriter(repository as unknown as ScreeningLogsRepository, relay as unknown as OutboxRelay);
  return { sut, written, relay, holdNext: () => (hold = true), release: () => ((hold = false), release?.()) };
}

describe('ScreeningLogWriter', () => {
  it('writes the screens of one turn of the event loop in one statement', async () => {
    const { sut, written, relay } = setup();
    await Promise.all([sut.record([entry('a')]), sut.record([entry('b')]), sut.record([entry('c'), entry('d')])]);
    expect(written).toEqual([['a', 'b', 'c', 'd']]);
    expect(relay.nudge).toHaveBeenCalledTimes(1);
  });

  it('resolves a screen only once its write has committed, and batches what arrives meanwhile', async () => {
    const { sut, written, holdNext, release } = setup();
    holdNext();
    let firstDone = false;
    const first = sut.record([entry('a')]).then(() => (firstDone = true));
    await new Promise((r) => setImmediate(r));
    const later = [sut.record([entry('b')]), sut.record([entry('c')])];
    await new Promise((r) => setImmediate(r));
    expect(firstDone).toBe(false);
    release();
    await Promise.all([first, ...later]);
    expect(written).toEqual([['a'], ['b', 'c']]);
  });

  it('refuses a screen whose quota lease lapsed before its log was written', async () => {
    const { sut } = setup();
    const [late, onTime] = await Promise.allSettled([sut.record([entry('late-1')]), sut.record([entry('b')])]);
    expect(late).toMatchObject({ status: 'rejected', reason: { code: 'SERVICE_UNAVAILABLE' } });
    expect(onTime).toMatchObject({ status: 'fulfilled' });
  });
});
