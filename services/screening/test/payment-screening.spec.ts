import { jest } from '@jest/globals';
import type { ListsResponse, PaymentScreenResponse, ScreeningCaller } from '@vigil/proto';
import { readFileSync } from 'node:fs';
import { writeSdn } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

// Payment messages end to end over NATS against an SDN fixture: a listed person hidden in an MT103
// field 59, a listed bank as a pacs.008 intermediary agent, a listed wallet in a pacs.009's
// remittance text, an embargoed country, and clean messages that must stay clear.

jest.setTimeout(60_000);

const caller: ScreeningCaller = { clientId: 'client-payments', tier: 'large', feeds: ['ofac'] };
const vector = (name: string) => readFileSync(new URL(`./payment-messages/${name}`, import.meta.url), 'utf8');

describe('payment-message screening', () => {
  const h = new Harness();
  const screen = (message: string, type?: string) =>
    h.value<PaymentScreenResponse>('screening.v1.screen-payment', { ...caller, message, ...(type ? { type } : {}) });

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeSdn(dir, [
      { id: 9101, name: 'IVANOV, Petr', type: 'individual', programs: 'RUSSIA-EO14024', remarks: 'DOB 01 Jan 1970.' },
      { id: 9102, name: 'PROMSVYAZBANK PJSC', programs: 'RUSSIA-EO14024', remarks: 'SWIFT/BIC PRMSRUMM.' },
      {
        id: 9103,
        name: 'GARANTEX EUROPE OU',
        programs: 'CYBER2',
        remarks: 'Digital Currency Address - XBT 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2.',
      },
    ]);
    h.startService({ LISTS_DIR: dir });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 1 && r.lists.every((l) => l.status === 'active'),
    );
  });
  afterAll(() => h.stop());

  it('finds a listed creditor in MT103 field 59 and names the field', async () => {
    const res = await screen(vector('mt103-listed-creditor.txt'));
    expect(res).toMatchObject({ messageType: 'mt103', messageReference: 'VIGIL-MT103-0001', match: true });
    const creditor = res.parties.find((p) => p.role === 'creditor')!;
    expect(creditor.name).toBe('PETR IVANOV');
    expect(creditor.hits[0]).toMatchObject({ field: '/block4/59/name', kind: 'name', value: 'PETR IVANOV' });
    expect(creditor.hits[0]!.result).toMatchObject({ id: 'ofac-sdn:9101' });
    expect(res.status).toBe(creditor.status);
    expect(creditor.status).not.toBe('clear');
    // Nobody else in the message is hit.
    expect(res.parties.filter((p) => p.role !== 'creditor').every((p) => p.status === 'clear')).toBe(true);
  });

  it('blocks a pacs.008 whose intermediary agent is a listed bank, by its BIC', async () => {
    const res = await screen(vector('pacs008-listed-intermediary.xml'), 'pacs.008');
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
    const res = await screen(vector('pacs009-wallet-in-remittance.xml'));
    expect(res.status).toBe('blocked');
    expect(res.freeText[0]!.hits).toEqual([
      expect.objectContaining({
        field: '/Document/FICdtTrf/CdtTrfTxInf/RmtInf/Ustrd',
        kind: 'remittance',
        status: 'blocked',
        result: expect.objectContaining({ id: 'ofac-sdn:9103', matchedOn: 'identifier' }),
      }),
    ]);
  });

  it('holds for review a payment to an address in an embargoed country', async () => {
    const res = await screen(vector('mt103-embargoed-country.txt'));
    expect(res.status).toBe('review');
    const creditor = res.parties.find((p) => p.role === 'creditor')!;
    expect(creditor.hits).toEqual([
      expect.objectContaining({ field: '/block4/59F/country', kind: 'country', value: 'IR', status: 'review' }),
    ]);
  });

  it('answers a clean pain.001 clear, having screened every field', async () => {
    const res = await screen(vector('pain001-clean.xml'));
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
