// POST /api/v1/screen and /api/v1/bulk-screen with identifiers, and POST /api/v1/screen/payment,
// through the gateway to the screening service on the bundled sample lists (SDN vessel IRAN HORMUZ
// 12, IMO 7632826; SBERBANK, SWIFT/BIC SABRRUMM; KADYROV, Ramzan Akhmatovich). One file, so the
// payment cases share the stack the identifier cases boot.
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

describe('screening by identifier over HTTP', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  const post = (path: string, body: object) => request(app.getHttpServer()).post(path).set('x-api-key', key).send(body);
  const postPayment = (body: object) => post('/api/v1/screen/payment', body);
  const usage = async () =>
    (await request(app.getHttpServer()).get('/api/v1/status').set('x-api-key', key)).body.usage as number;

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
    ({ key } = await stack.client('large'));
  });
  afterAll(() => stack.stop());

  it('blocks a listed IMO number given alone and explains it', async () => {
    const res = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: 'IMO 7632826' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'blocked', blocked: true, searchedName: null });
    expect(res.body.results[0]).toMatchObject({ name: 'IRAN HORMUZ 12', matchedOn: 'identifier', score: 1 });
    expect(res.body.results[0].explanation.text).toContain('SDN-listed IMO number 7632826');
  });

  it('answers a valid unlisted wallet address typed as the name clear', async () => {
    const res = await post('/api/v1/screen', { name: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'clear', results: [] });
  });

  it('refuses a bad check digit, an unknown type and an unknown field with problem+json', async () => {
    const digit = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: '7632827' }] });
    expect(digit.status).toBe(400);
    expect(digit.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(digit.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(digit.body.errors).toEqual([
      {
        pointer: '/identifiers/0/value',
        detail: '7632827 is not an IMO number (7 digits with a valid check digit)',
      },
    ]);
    const type = await post('/api/v1/screen', { identifiers: [{ type: 'ssn', value: '123' }] });
    expect(type.status).toBe(400);
    expect(type.body.code).toBe('VALIDATION_FAILED');
    const unknown = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: '7632826', chain: 'ETH' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
  });

  it('screens bulk rows with their identifiers', async () => {
    const res = await post('/api/v1/bulk-screen', {
      entities: [
        { name: 'Some Shipping Company', identifiers: [{ type: 'imo', value: '7632826' }], reference: 'row-1' },
        { name: 'Jane Doe' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['blocked', 'clear']);
    expect(res.body.results[0].reference).toBe('row-1');
    // A row's identifier failing its check digit is refused with the pointer into the request.
    const digit = await post('/api/v1/bulk-screen', {
      entities: [{ name: 'Jane Doe' }, { name: 'Some Ship', identifiers: [{ type: 'imo', value: '7632827' }] }],
    });
    expect(digit.status).toBe(400);
    expect(digit.body.errors[0].pointer).toBe('/entities/1/identifiers/0/value');
  });

  describe('payment messages', () => {
    it('blocks a pacs.008 routed through a listed bank, naming the field, and counts one screen', async () => {
      const before = await usage();
      const message = vector('pacs008-listed-intermediary.xml').replace('PRMSRUMMXXX', 'SABRRUMMXXX');
      const res = await postPayment({ message });
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
      const res = await postPayment({ message: MT103_KADYROV, type: 'mt103' });
      expect(res.status).toBe(200);
      const creditor = res.body.parties.find((p: { role: string }) => p.role === 'creditor');
      expect(creditor.status).not.toBe('clear');
      expect(creditor.hits[0]).toMatchObject({ field: '/block4/59/name', kind: 'name' });
      expect(creditor.hits[0].result.name).toBe('KADYROV, Ramzan Akhmatovich');
    });

    it('answers a clean pain.001 clear', async () => {
      const res = await postPayment({ message: vector('pain001-clean.xml') });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ messageType: 'pain.001', status: 'clear', match: false });
    });

    it.each([
      [
        'an external entity (XXE)',
        {
          message:
            '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>',
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
      [
        'another MT type',
        { message: MT103_KADYROV.replace('I103', 'I202') },
        400,
        'PAYMENT_MESSAGE_INVALID',
        '/message',
      ],
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
      const res = await postPayment(body);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(code);
      if (pointer) expect(res.body.errors[0].pointer).toBe(pointer);
      // A refused message is not charged.
      expect(await usage()).toBe(before);
    });
  });
});
