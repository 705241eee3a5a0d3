// Found by `npm run test:resilience`: a screen whose first answer was lost (the gateway SIGKILLed
// after screening had logged it, or screening's reply timed out across a NATS restart) ran again
// when the client retried with the same Idempotency-Key, and was logged twice under two ids. The
// retry now hands screening the key's operation id, so the log already written is the answer.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(120_000);

describe('a screen retried under one Idempotency-Key is logged once', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  let clientId: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    const client = await stack.client('large');
    key = client.key;
    clientId = client.id;
  });

  afterAll(() => stack.stop());

  it.each([
    ['/api/v1/screen', 'idem-retry-v1'],
  ])('%s runs again after its stored answer is lost, under the same screening id', async (path, idempotencyKey) => {
    const send = () =>
      http().post(path).set({ 'x-api-key': key, 'idempotency-key': idempotencyKey }).send({ name: 'Viktor Bout' });
    const first = await send();
    expect(first.status).toBe(200);
    // What a gateway that died between screening's reply and storing the answer leaves behind.
    await stack.sql('gateway', 'DELETE FROM idempotency_keys');
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.screeningId).toBe(first.body.screeningId);
    const logs = await stack.sql('screening', 'SELECT id FROM screening_logs WHERE client_id = $1', [clientId]);
    expect(logs).toEqual([{ id: first.body.screeningId }]);
  });

  it('gives different keys different screenings', async () => {
    const a = await http().post('/api/v1/screen').set({ 'x-api-key': key, 'idempotency-key': 'idem-a' }).send({ name: 'Jane Doe' });
    const b = await http().post('/api/v1/screen').set({ 'x-api-key': key, 'idempotency-key': 'idem-b' }).send({ name: 'Jane Doe' });
    expect(a.body.screeningId).not.toBe(b.body.screeningId);
  });
});
