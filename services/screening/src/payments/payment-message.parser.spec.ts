import { readFileSync } from 'node:fs';
import { PaymentMessageError } from './payment-message.js';
import { parsePaymentMessage } from './payment-message.parser.js';

// Test vectors written from the message definitions (ISO 20022 pacs.008/pacs.009/pain.001 element
// names, MT103 field formats): every party with its role and the field of each value.

const vector = (name: string) => readFileSync(new URL(`../../test/payment-messages/${name}`, import.meta.url), 'utf8');

const refusal = (text: string, type?: Parameters<typeof parsePaymentMessage>[1]): PaymentMessageError => {
  try {
    parsePaymentMessage(text, type);
  } catch (error) {
    if (error instanceof PaymentMessageError) return error;
    throw error;
  }
  throw new Error('the message was read');
};

describe('ISO 20022', () => {
  it('reads every party of a pacs.008 with its role, accounts, countries and the remittance text', () => {
    const m = parsePaymentMessage(vector('pacs008-listed-intermediary.xml'));
    expect(m).toMatchObject({ type: 'pacs.008', reference: 'VIGIL-PACS008-0001' });
    expect(m.parties.map((p) => p.role)).toEqual([
      'instructing-agent',
      'instructed-agent',
      'intermediary-agent',
      'debtor',
      'debtor-agent',
      'creditor-agent',
      'creditor',
    ]);
    const tx = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';
    const intermediary = m.parties[2]!;
    expect(intermediary.identifiers).toEqual([
      { type: 'swift-bic', field: `${tx}/IntrmyAgt1/FinInstnId/BICFI`, value: 'PRMSRUMMXXX' },
    ]);
    expect(intermediary.countries).toEqual([{ field: `${tx}/IntrmyAgt1/FinInstnId/BICFI`, value: 'RU' }]);
    const debtor = m.parties[3]!;
    expect(debtor.name).toEqual({ field: `${tx}/Dbtr/Nm`, value: 'Anna Schmidt' });
    expect(debtor.countries).toEqual([{ field: `${tx}/Dbtr/PstlAdr/Ctry`, value: 'DE' }]);
    expect(debtor.identifiers).toEqual([
      { type: 'iban', field: `${tx}/DbtrAcct/Id/IBAN`, value: 'DE89370400440532013000' },
    ]);
    expect(m.freeText).toEqual([{ field: `${tx}/RmtInf/Ustrd`, value: 'Invoice 2026-114 garden furniture' }]);
  });

  it('numbers repeated transactions in a pain.001 and reads the initiating party', () => {
    const m = parsePaymentMessage(vector('pain001-clean.xml'));
    expect(m.type).toBe('pain.001');
    const creditors = m.parties.filter((p) => p.role === 'creditor');
    expect(creditors.map((c) => c.name)).toEqual([
      { field: '/Document/CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf[1]/Cdtr/Nm', value: 'Jean Dupont' },
      { field: '/Document/CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf[2]/Cdtr/Nm', value: 'Lena Vogel' },
    ]);
    expect(m.parties.find((p) => p.role === 'initiating-party')?.name?.value).toBe('Gartenbau Schmidt GmbH');
  });

  it('reads the institutions of a pacs.009 as debtor and creditor by BIC', () => {
    const m = parsePaymentMessage(vector('pacs009-wallet-in-remittance.xml'));
    expect(m.type).toBe('pacs.009');
    expect(m.parties.map((p) => [p.role, p.identifiers[0]?.value])).toEqual([
      ['debtor', 'COBADEFFXXX'],
      ['creditor', 'BNPAFRPPXXX'],
    ]);
    expect(m.freeText[0]!.value).toContain('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
  });

  it('reads a wallet as the account of a party (Othr/Id)', () => {
    const xml = vector('pacs008-listed-intermediary.xml').replace(
      '<IBAN>FR1420041010050500013M02606</IBAN>',
      '<Othr><Id>0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed</Id></Othr>',
    );
    const creditor = parsePaymentMessage(xml).parties.find((p) => p.role === 'creditor')!;
    expect(creditor.identifiers).toEqual([
      {
        type: 'crypto-address',
        field: '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf/CdtrAcct/Id/Othr/Id',
        value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      },
    ]);
  });

  it.each([
    [
      'an external entity (XXE)',
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document>&x;</Document>',
      'DOCTYPE',
    ],
    [
      'an entity expansion bomb',
      `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY b${i} "${'&a;'.repeat(10)}">`).join('')}]><Document>&b8;</Document>`,
      'DOCTYPE',
    ],
    ['an undeclared entity', '<Document><FIToFICstmrCdtTrf>&x;</FIToFICstmrCdtTrf></Document>', 'not well-formed'],
    ['unclosed elements', '<Document><FIToFICstmrCdtTrf>', 'not well-formed'],
    ['another message', '<Document><FIToFIPmtStsRpt/></Document>', 'not a pacs.008'],
    [
      'no transaction',
      '<Document><FIToFICstmrCdtTrf><GrpHdr/></FIToFICstmrCdtTrf></Document>',
      'without a transaction',
    ],
    ['deep nesting', `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, 'nested deeper'],
  ])('refuses %s with the place of the fault', (_, xml, words) => {
    const error = refusal(xml);
    expect(error.message).toContain(words);
    expect(error.path).toMatch(/^\//);
  });

  it('refuses a message of another type than the one named', () => {
    expect(refusal(vector('pain001-clean.xml'), 'pacs.008')).toMatchObject({ path: '/type' });
  });
});

describe('MT103', () => {
  it('reads the header institutions and the party fields, the creditor name from field 59', () => {
    const m = parsePaymentMessage(vector('mt103-listed-creditor.txt'));
    expect(m).toMatchObject({ type: 'mt103', reference: 'VIGIL-MT103-0001' });
    expect(m.parties.map((p) => [p.role, p.path])).toEqual([
      ['sender', '/block1/sender'],
      ['receiver', '/block2/receiver'],
      ['debtor', '/block4/50K'],
      ['debtor-agent', '/block4/52A'],
      ['creditor-agent', '/block4/57A'],
      ['creditor', '/block4/59'],
    ]);
    expect(m.parties[0]!.identifiers[0]!.value).toBe('COBADEFFXXX');
    const creditor = m.parties[5]!;
    expect(creditor.name).toEqual({ field: '/block4/59/name', value: 'PETR IVANOV' });
    expect(creditor.identifiers).toEqual([
      { type: 'iban', field: '/block4/59/account', value: 'FR1420041010050500013M02606' },
    ]);
    expect(creditor.countries).toEqual([{ field: '/block4/59/address/2', value: 'FR' }]);
    expect(m.parties[2]!.countries).toEqual([{ field: '/block4/50K/address/2', value: 'DE' }]);
    expect(m.freeText).toEqual([{ field: '/block4/70', value: 'CONSULTING FEES OCTOBER' }]);
  });

  it('reads option F (numbered lines) and block 4 alone', () => {
    const m = parsePaymentMessage(vector('mt103-embargoed-country.txt'));
    const creditor = m.parties.find((p) => p.role === 'creditor')!;
    expect(creditor).toMatchObject({
      path: '/block4/59F',
      name: { field: '/block4/59F/name', value: 'ALI REZAEI' },
      countries: [{ field: '/block4/59F/country', value: 'IR' }],
    });
    expect(creditor.identifiers[0]).toMatchObject({ type: 'iban', value: 'IR580540105180021273113007' });
  });

  it.each([
    ['another MT type', '{1:F01COBADEFFAXXX0000000000}{2:I202BNPAFRPPXXXXN}{4:\n:20:X\n-}', '/block2', 'MT202'],
    ['no mandatory field 59', ':20:X\n:23B:CRED\n:32A:261128EUR1,00\n:50K:A\n:71A:SHA', '/block4/59', 'missing'],
    [
      'an option field 59 does not have',
      ':20:X\n:23B:CRED\n:32A:261128EUR1,00\n:50K:A\n:59D:B\n:71A:SHA',
      '/block4/59D',
      'no option',
    ],
    [
      'a BIC that is not one',
      ':20:X\n:23B:CRED\n:32A:261128EUR1,00\n:50A:NOT-A-BIC\n:59:B\n:71A:SHA',
      '/block4/50A/bic',
      'not a BIC',
    ],
    ['an unterminated block 4', '{1:F01COBADEFFAXXX0000000000}{2:I103BNPAFRPPXXXXN}{4:\n:20:X\n', '/block4', '-}'],
    ['plain text', 'hello, this is not a payment', '/message', 'neither XML'],
  ])('refuses %s with the field at fault', (_, text, path, words) => {
    const error = refusal(text);
    expect(error.path).toBe(path);
    expect(error.message).toContain(words);
  });
});
