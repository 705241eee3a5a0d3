import { jest } from '@jest/globals';
import type {
  BulkScreenResponse,
  ListsResponse,
  PaymentScreenResponse,
  ScreenResponse,
  ScreeningCaller,
} from '@vigil/proto';
import { readFileSync } from 'node:fs';
import { writeSdn } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

// Identifiers as evidence, end to end over NATS: the SDN fixture carries addresses, an IMO number,
// a passport and a BIC written as OFAC writes them in its remarks. Payment messages use the same
// fixture: a listed person hidden in an MT103 field 59, a listed bank as a pacs.008 intermediary
// agent, a listed wallet in a pacs.009's remittance text, an embargoed country, clean messages.

jest.setTimeout(60_000);

const caller: ScreeningCaller = { clientId: 'client-identifiers', tier: 'large', feeds: ['ofac'] };
const BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const vector = (name: string) => readFileSync(new URL(`./payment-messages/${name}`, import.meta.url), 'utf8');

describe('screening by identifier', () => {
  const h = new Harness();
  const screen = (entity: object) => h.value<ScreenResponse>('screening.v1.screen', { ...caller, entity });

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeSdn(dir, [
      {
        id: 9001,
        name: 'GARANTEX EUROPE OU',
        programs: 'CYBER2',
        remarks: `Digital Currency Address - XBT ${BTC}; alt. Digital Currency Address - ETH ${ETH.toLowerCase()}; Registration Number 14404291 (Estonia).`,
      },
      {
        id: 9002,
        name: 'SEA PIONEER',
        type: 'vessel',
        programs: 'IRAN',
        remarks: 'Vessel Registration Identification IMO 9187629; MMSI 249417000.',
      },
      {
        id: 9003,
        name: 'IVANOV, Petr',
        type: 'individual',
        programs: 'RUSSIA-EO14024',
        remarks: 'DOB 01 Jan 1970; Passport 4509123456 (Russia).',
      },
      { id: 9004, name: 'PROMSVYAZBANK PJSC', programs: 'RUSSIA-EO14024', remarks: 'SWIFT/BIC PRMSRUMM.' },
    ]);
    h.startService({ LISTS_DIR: dir });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 1 && r.lists.every((l) => l.status === 'active'),
    );
  });
  afterAll(() => h.stop());

  it('blocks a listed wallet address screened alone, and says which list gives it', async () => {
    const res = await screen({ identifiers: [{ type: 'crypto-address', value: ETH }] });
    expect(res).toMatchObject({ status: 'blocked', blocked: true, searchedName: null });
    expect(res.results[0]).toMatchObject({ id: 'ofac-sdn:9001', matchedOn: 'identifier', score: 1, status: 'blocked' });
    expect(res.results[0]!.explanation.text).toContain(`SDN-listed ETH address ${ETH.toLowerCase()}`);
  });

  it('recognises an SDN bitcoin address pasted as the name and blocks it', async () => {
    const res = await screen({ name: BTC });
    expect(res).toMatchObject({ status: 'blocked', searchedName: BTC });
    expect(res.results.map((r) => r.id)).toEqual(['ofac-sdn:9001']);
    expect(res.results[0]!.explanation.qualifiers[0]!.detail).toBe(`SDN-listed XBT address ${BTC}`);
  });

  it('answers a valid but unlisted address clear', async () => {
    const res = await screen({ name: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy' });
    expect(res).toMatchObject({ status: 'clear', results: [] });
  });

  it('explains a different IMO number as evidence against a vessel name match', async () => {
    const alone = await screen({ name: 'Sea Pioneer', entityType: 'vessel' });
    const other = await screen({
      name: 'Sea Pioneer',
      entityType: 'vessel',
      identifiers: [{ type: 'imo', value: '9074729' }],
    });
    expect(alone.status).toBe('blocked');
    expect(other.status).toBe('review');
    expect(other.results[0]!.explanation.qualifiers.at(-1)!.detail).toBe(
      'IMO number 9074729 is not the listed IMO number: 9187629',
    );
    const same = await screen({ name: 'Sea Pioneer', identifiers: [{ type: 'imo', value: 'IMO 9187629' }] });
    expect(same.results[0]).toMatchObject({ matchedOn: 'identifier', status: 'blocked' });
  });

  it('finds a passport only in the country that issued it', async () => {
    const ru = await screen({ identifiers: [{ type: 'passport', value: '4509 123456', country: 'RU' }] });
    expect(ru.results.map((r) => r.id)).toEqual(['ofac-sdn:9003']);
    const ua = await screen({ identifiers: [{ type: 'passport', value: '4509 123456', country: 'UA' }] });
    expect(ua).toMatchObject({ status: 'clear', results: [] });
  });

  it('refuses an identifier whose check digit is wrong, naming it', async () => {
    const bad = await h.request('screening.v1.screen', {
      ...caller,
      entity: { identifiers: [{ type: 'imo', value: '9187628' }] },
    });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('VALIDATION_FAILED');
    expect(bad.ok ? [] : bad.error.errors).toEqual([
      {
        pointer: '/identifiers/0/value',
        detail: '9187628 is not an IMO number (7 digits with a valid check digit)',
      },
    ]);
  });

  it('screens the identifiers of bulk rows', async () => {
    const res = await h.value<BulkScreenResponse>('screening.v1.bulk-screen', {
      ...caller,
      names: [
        { name: 'Some Trading Company', identifiers: [{ type: 'registration', value: '14404291' }] },
        ETH,
        { name: 'Sea Pioneer', identifiers: [{ type: 'imo', value: '9074729' }] },
      ],
    });
    expect(res.results.map((r) => r.status)).toEqual(['blocked', 'blocked', 'review']);
    expect(res.results[0]!.results[0]!.id).toBe('ofac-sdn:9001');
  });

  describe('payment messages', () => {
    const screenPayment = (message: string, type?: string) =>
      h.value<PaymentScreenResponse>('screening.v1.screen-payment', { ...caller, message, ...(type ? { type } : {}) });

    it('finds a listed creditor in MT103 field 59 and names the field', async () => {
      const res = await screenPayment(vector('mt103-listed-creditor.txt'));
      expect(res).toMatchObject({ messageType: 'mt103', messageReference: 'VIGIL-MT103-0001', match: true });
      const creditor = res.parties.find((p) => p.role === 'creditor')!;
      expect(creditor.name).toBe('PETR IVANOV');
      expect(creditor.hits[0]).toMatchObject({ field: '/block4/59/name', kind: 'name', value: 'PETR IVANOV' });
      expect(creditor.hits[0]!.result).toMatchObject({ id: 'ofac-sdn:9003' });
      expect(res.status).toBe(creditor.status);
      expect(creditor.status).not.toBe('clear');
      // Nobody else in the message is hit.
      expect(res.parties.filter((p) => p.role !== 'creditor').every((p) => p.status === 'clear')).toBe(true);
    });

    it('blocks a pacs.008 whose intermediary agent is a listed bank, by its BIC', async () => {
      const res = await screenPayment(vector('pacs008-listed-intermediary.xml'), 'pacs.008');
      expect(res).toMatchObject({ messageType: 'pacs.008', status: 'blocked', blocked: true });
      const intermediary = res.parties.find((p) => p.role === 'intermediary-agent')!;
      expect(intermediary.hits).toEqual([
        expect.objectContaining({
          field: '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf/IntrmyAgt1/FinInstnId/BICFI',
          kind: 'identifier',
          status: 'blocked',
          reason: expect.stringContaining('SDN-listed BIC PRMSRUMM'),
        }),
      ]);
      expect(res.parties.filter((p) => p !== intermediary).every((p) => p.hits.length === 0)).toBe(true);
    });

    it('blocks a listed wallet written into the remittance text of a pacs.009', async () => {
      const res = await screenPayment(vector('pacs009-wallet-in-remittance.xml'));
      expect(res.status).toBe('blocked');
      expect(res.freeText[0]!.hits).toEqual([
        expect.objectContaining({
          field: '/Document/FICdtTrf/CdtTrfTxInf/RmtInf/Ustrd',
          kind: 'remittance',
          status: 'blocked',
          result: expect.objectContaining({ id: 'ofac-sdn:9001', matchedOn: 'identifier' }),
        }),
      ]);
    });

    it('holds for review a payment to an address in an embargoed country', async () => {
      const res = await screenPayment(vector('mt103-embargoed-country.txt'));
      expect(res.status).toBe('review');
      const creditor = res.parties.find((p) => p.role === 'creditor')!;
      expect(creditor.hits).toEqual([
        expect.objectContaining({ field: '/block4/59F/country', kind: 'country', value: 'IR', status: 'review' }),
      ]);
    });

    it('answers a clean pain.001 clear, having screened every field', async () => {
      const res = await screenPayment(vector('pain001-clean.xml'));
      expect(res).toMatchObject({ messageType: 'pain.001', status: 'clear', match: false, blocked: false });
      expect(res.parties.every((p) => p.status === 'clear' && p.hits.length === 0)).toBe(true);
      // 5 names, 7 identifiers (3 IBANs, 3 BICs… and the initiating party has none), 5 countries, 1 text.
      expect(res.fieldsScreened).toBeGreaterThanOrEqual(15);
      expect(res.listVersions.map((v) => v.source)).toEqual(['ofac-sdn']);
    });

    it('refuses a hostile message with a stable code and the place of the fault', async () => {
      const xxe = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>';
      const reply = await h.request('screening.v1.screen-payment', { ...caller, message: xxe });
      expect(reply).toMatchObject({
        ok: false,
        error: {
          code: 'PAYMENT_MESSAGE_INVALID',
          errors: [{ pointer: '/message', detail: expect.stringContaining('DOCTYPE') }],
        },
      });
    });
  });
});
