// POST /api/v1/screen/payment through the gateway to the screening service on the bundled sample
// lists (SDN: SBERBANK, SWIFT/BIC SABRRUMM; KADYROV, Ramzan Akhmatovich).
import { jest } from '@jest/globals';
import request from 'supertest';
import type { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { ApiStack } from './api-stack.js';

jest.setTimeout(120_000);

const vector = (name: string) =>
  readFileSync(new URL(`../../screening/test/payment-messages/${name}`, import.meta.url), 'utf8');

const MT103_KADYROV = `{1:F01COBADEFFAXXX0000000000}{2:I103BNPAFRPPXXXXN}{4:
:20:GW-MT103-1
:23B:CRED
:32A:261128EUR500,00
:50K:/DE89370400440532013000
ANNA SCHMIDT
:57A:BNPAFRPPXXX
:59:/FR1420041010050500013M02606
RAMZAN AKHMATOVICH KADYROV
GROZNY
:71A:SHA
-}`;

describe('payment-message screening over HTTP', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  const post = (body: object) =>
    request(app.getHttpServer()).post('/api/v1/screen/payment').set('x-api-key', key).send(body);
  const usage = async () =>
    (await request(app.getHttpServer()).get('/api/v1/status').set('x-api-key', key)).body.usage as number;

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
    ({ key } = await stack.client('large'));
  });
  afterAll(() => stack.stop());

  it('blocks a pacs.008 routed through a listed bank, naming the field, and counts one screen', async () => {
    const before = await usage();
    const message = vector('pacs008-listed-intermediary.xml').replace('PRMSRUMMXXX', 'SABRRUMMXXX');
    const res = await post({ message });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ messageType: 'pacs.008', status: 'blocked', blocked: true });
    const intermediary = res.body.parties.find((p: { role: string }) => p.role === 'intermediary-agent');
    expect(intermediary.hits[0]).toMatchObject({
      field: '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf/IntrmyAgt1/FinInstnId/BICFI',
      kind: 'identifier',
      reason: expect.stringContaining('SDN-listed BIC SABRRUMM'),
    });
    expect(await usage()).toBe(before + 1);
  });

  it('finds a listed creditor in MT103 field 59', async () => {
    const res = await post({ message: MT103_KADYROV, type: 'mt103' });
    expect(res.status).toBe(200);
    const creditor = res.body.parties.find((p: { role: string }) => p.role === 'creditor');
    expect(creditor.status).not.toBe('clear');
    expect(creditor.hits[0]).toMatchObject({ field: '/block4/59/name', kind: 'name' });
    expect(creditor.hits[0].result.name).toBe('KADYROV, Ramzan Akhmatovich');
  });

  it('answers a clean pain.001 clear', async () => {
    const res = await post({ message: vector('pain001-clean.xml') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ messageType: 'pain.001', status: 'clear', match: false });
  });

  it.each([
    [
      'an external entity (XXE)',
      {
        message: '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>',
      },
      400,
      'PAYMENT_MESSAGE_INVALID',
      '/message',
    ],
    [
      'a billion laughs',
      {
        message: `<!DOCTYPE l [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY b${i} "${'&a;'.repeat(10)}">`).join('')}]><Document>&b8;</Document>`,
      },
      400,
      'PAYMENT_MESSAGE_INVALID',
      '/message',
    ],
    ['another MT type', { message: MT103_KADYROV.replace('I103', 'I202') }, 400, 'PAYMENT_MESSAGE_INVALID', '/message'],
    [
      'a type the message is not',
      { message: MT103_KADYROV, type: 'pacs.008' },
      400,
      'PAYMENT_MESSAGE_INVALID',
      '/type',
    ],
    [
      'a message over 256 KiB',
      { message: `<Document>${'x'.repeat(300_000)}</Document>` },
      400,
      'VALIDATION_FAILED',
      '/message',
    ],
    ['a body over 1 MB', { message: 'x'.repeat(1_100_000) }, 413, 'PAYLOAD_TOO_LARGE', undefined],
    ['a message that is not a string', { message: 42 }, 400, 'VALIDATION_FAILED', '/message'],
    ['an unknown field', { message: MT103_KADYROV, format: 'swift' }, 400, 'VALIDATION_FAILED', undefined],
  ])('refuses %s with problem+json', async (_, body, status, code, pointer) => {
    const before = await usage();
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe(code);
    if (pointer) expect(res.body.errors[0].pointer).toBe(pointer);
    // A refused message is not charged.
    expect(await usage()).toBe(before);
  });
});
