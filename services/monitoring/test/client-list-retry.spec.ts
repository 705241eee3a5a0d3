// A client list upload whose answer was lost (the gateway's deadline passed while monitoring was
// still building the list, so the caller retried under the same Idempotency-Key and the gateway
// handed monitoring the same upload id again): the list is stored once, and the retry answers it.
// Found by the resilience suite on a loaded host: 'client list resilience-list-16 stored 2 times'.
import { DEFAULT_THRESHOLDS, FEEDS, contracts } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { MonitoringStack } from './harness.js';

const stack = new MonitoringStack();
beforeAll(() => stack.start(['monitoring']), 120_000);
afterAll(() => stack.stop());

describe('a client list upload completed twice under one upload id', () => {
  it('stores the list once and answers the retry with it', async () => {
    const clientId = `client-${randomUUID()}`;
    const caller = { clientId, tier: 'large' as const, feeds: [...FEEDS], thresholds: { ...DEFAULT_THRESHOLDS } };
    const csv = 'name,email\nAlice Example,alice@example.com\nBob Example,bob@example.com\n';
    const uploadId = randomUUID();
    const upload = async () => {
      await stack.request(contracts.monitoring.clientLists.uploadPart, {
        clientId,
        uploadId,
        part: 0,
        data: Buffer.from(csv).toString('base64'),
      });
      return stack.request(contracts.monitoring.clientLists.upload, {
        clientId,
        uploadId,
        parts: 1,
        name: 'retried list',
        fileName: 'retried.csv',
        caller,
      });
    };

    const first = await upload();
    const retry = await upload();

    expect(retry.id).toBe(first.id);
    expect(retry.count).toBe(2);
    const { lists } = await stack.request(contracts.monitoring.clientLists.list, { clientId });
    expect(lists.map((list) => [list.name, list.count])).toEqual([['retried list', 2]]);
  });

  it('never hands one client the list another client stored under that upload id', async () => {
    const uploadId = randomUUID();
    const csv = Buffer.from('name\nCarol Example\n').toString('base64');
    const uploadAs = async (clientId: string) => {
      const caller = { clientId, tier: 'large' as const, feeds: [...FEEDS], thresholds: { ...DEFAULT_THRESHOLDS } };
      await stack.request(contracts.monitoring.clientLists.uploadPart, { clientId, uploadId, part: 0, data: csv });
      return stack.request(contracts.monitoring.clientLists.upload, {
        clientId,
        uploadId,
        parts: 1,
        name: 'mine',
        fileName: 'mine.csv',
        caller,
      });
    };
    const owner = `client-${randomUUID()}`;
    const other = `client-${randomUUID()}`;
    await uploadAs(owner);
    await expect(uploadAs(other)).rejects.toMatchObject({ code: 'CONFLICT' });
    const { lists } = await stack.request(contracts.monitoring.clientLists.list, { clientId: other });
    expect(lists).toEqual([]);
  });
});
