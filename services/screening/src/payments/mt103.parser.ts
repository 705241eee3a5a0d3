import type { IdentifierType, PaymentRole } from '@vigil/proto';
import { ibanValid, looksLikeCryptoAddress, normaliseIso2, toIso2 } from '@vigil/lists';
import { bicCountry } from './iso20022.parser.js';
import { PaymentMessageError, type Located, type MessageParty, type PaymentMessage } from './payment-message.js';

// SWIFT MT103 (single customer credit transfer), read against the published field formats:
// blocks {1:} basic header (sender's LT address), {2:} application header (type and receiver),
// {4:} text of `:tag:` fields ending in `-}`. Party fields come in options: A (BIC, with an
// optional `/account` line), B (location), C (account), D and K (name and address, 4*35x),
// F (structured: `1/` name, `2/` address, `3/CC/town`, 50F also `4/`–`8/` and a party identifier).
// Paths name the field and part: `/block4/59/name`, `/block4/56A/bic`, `/block1/sender`.

const PARTY_FIELDS: Readonly<Record<string, PaymentRole>> = {
  '50': 'debtor',
  '52': 'debtor-agent',
  '53': 'senders-correspondent',
  '54': 'receivers-correspondent',
  '55': 'reimbursement-institution',
  '56': 'intermediary-agent',
  '57': 'creditor-agent',
  '59': 'creditor',
};

/** Free text: remittance information, sender to receiver information, regulatory reporting. */
const FREE_TEXT_FIELDS = new Set(['70', '72', '77B']);

/** Options each party field allows (MT103 field specifications). */
const OPTIONS: Readonly<Record<string, string>> = {
  '50': 'AFK',
  '52': 'AD',
  '53': 'ABD',
  '54': 'ABD',
  '55': 'ABD',
  '56': 'ACD',
  '57': 'ABCD',
  '59': ' AF',
};

const MANDATORY: ReadonlyArray<[string, string]> = [
  ['20', "sender's reference"],
  ['23B', 'bank operation code'],
  ['32A', 'value date, currency and amount'],
  ['50', 'ordering customer'],
  ['59', 'beneficiary customer'],
  ['71A', 'details of charges'],
];

/** 50F party identifier codes (`CCPT/DE/123`) and the identifier types they are. */
const PARTY_ID_CODES: Readonly<Record<string, IdentifierType>> = {
  CCPT: 'passport',
  NIDN: 'national-id',
  TXID: 'tax-id',
  CUST: 'registration',
};

const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

type Field = { tag: string; lines: string[] };

export function parseMt103(text: string): PaymentMessage {
  const trimmed = text.trim();
  const parties: MessageParty[] = [];
  let block4 = trimmed;
  if (trimmed.startsWith('{')) {
    const blocks = readBlocks(trimmed);
    const appHeader = blocks.get('2');
    const type = appHeader?.match(/^[IO](\d{3})/)?.[1];
    if (appHeader === undefined || type === undefined) {
      throw new PaymentMessageError('no application header block {2:} with a message type', '/block2');
    }
    if (type !== '103') throw new PaymentMessageError(`an MT${type} message, not MT103`, '/block2');
    const sender = blocks.get('1')?.match(/^F01([A-Z0-9]{12})/)?.[1];
    if (sender) parties.push(institution('sender', '/block1/sender', ltBic(sender)));
    // Input (I): the receiver's address follows the type; output (O): the sender's input reference does.
    const receiver = appHeader.startsWith('I') ? appHeader.slice(4, 16) : undefined;
    if (receiver && /^[A-Z0-9]{12}$/.test(receiver)) {
      parties.push(institution('receiver', '/block2/receiver', ltBic(receiver)));
    }
    const body = blocks.get('4');
    if (body === undefined) throw new PaymentMessageError('no text block {4:}', '/block4');
    block4 = body;
  } else if (!trimmed.startsWith(':')) {
    throw new PaymentMessageError('neither XML nor SWIFT MT text', '/message');
  }
  const fields = readFields(block4);
  for (const [tag, what] of MANDATORY) {
    if (!fields.some((f) => f.tag.startsWith(tag))) {
      throw new PaymentMessageError(`mandatory field ${tag} (${what}) is missing`, `/block4/${tag}`);
    }
  }
  const freeText: Located[] = [];
  for (const field of fields) {
    const base = field.tag.slice(0, 2);
    const role = PARTY_FIELDS[base];
    if (role) parties.push(partyOf(field, role));
    else if (FREE_TEXT_FIELDS.has(field.tag)) {
      const value = field.lines.join(' ').replace(/\s+/g, ' ').trim();
      if (value) freeText.push({ field: `/block4/${field.tag}`, value });
    }
  }
  const reference = fields.find((f) => f.tag === '20')?.lines[0]?.trim();
  return { type: 'mt103', ...(reference ? { reference } : {}), parties, freeText };
}

/** Blocks 1 to 5 by number; block 4 ends at its own `-}` (its text may hold braces). */
function readBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '{') throw new PaymentMessageError(`unexpected "${text[i]}" between blocks`, `/message[${i}]`);
    const id = text.slice(i + 1, text.indexOf(':', i));
    if (!/^[1-5]$/.test(id)) throw new PaymentMessageError(`unknown block "${id.slice(0, 10)}"`, `/message[${i}]`);
    let end: number;
    if (id === '4') {
      end = text.indexOf('\n-}', i);
      if (end < 0) end = text.indexOf('-}', i);
      if (end < 0) throw new PaymentMessageError('block 4 does not end with "-}"', '/block4');
      blocks.set(id, text.slice(i + 3, end).replace(/^\r?\n/, ''));
      i = text.indexOf('}', end) + 1;
    } else {
      // Blocks 3 and 5 hold {tag:value} pairs: find the brace that closes this block.
      let depth = 0;
      end = i;
      for (; end < text.length; end++) {
        if (text[end] === '{') depth++;
        else if (text[end] === '}' && --depth === 0) break;
      }
      if (depth !== 0) throw new PaymentMessageError(`block ${id} is not closed`, `/block${id}`);
      blocks.set(id, text.slice(i + 3, end));
      i = end + 1;
    }
    while (i < text.length && /\s/.test(text[i]!)) i++;
  }
  return blocks;
}

function readFields(block4: string): Field[] {
  const fields: Field[] = [];
  for (const line of block4.split(/\r?\n/)) {
    const start = line.match(/^:(\d{2}[A-Z]?):(.*)$/);
    if (start) fields.push({ tag: start[1]!, lines: [start[2]!] });
    else if (fields.length > 0) fields[fields.length - 1]!.lines.push(line);
    else if (line.trim()) throw new PaymentMessageError('block 4 must start with a field tag (":20:")', '/block4');
  }
  if (fields.length === 0) throw new PaymentMessageError('block 4 has no fields', '/block4');
  return fields.map((f) => ({ tag: f.tag, lines: f.lines.filter((l, k) => k === 0 || l.trim() !== '') }));
}

/** A logical terminal address (BIC8, terminal letter, branch) as the BIC it names. */
const ltBic = (address: string): string => address.slice(0, 8) + address.slice(9, 12);

function institution(role: PaymentRole, path: string, bic: string): MessageParty {
  return {
    role,
    path,
    address: [],
    countries: [{ field: path, value: bicCountry(bic) }],
    identifiers: [{ type: 'swift-bic', field: path, value: bic }],
  };
}

function partyOf(field: Field, role: PaymentRole): MessageParty {
  const base = field.tag.slice(0, 2);
  const option = field.tag.slice(2) || ' ';
  const path = `/block4/${field.tag}`;
  if (!OPTIONS[base]!.includes(option)) {
    throw new PaymentMessageError(`field ${base} has no option ${option.trim() || '(none)'} in MT103`, path);
  }
  const party: MessageParty = { role, path, address: [], countries: [], identifiers: [] };
  const lines = field.lines.map((l) => l.trim());
  // An account or party identifier comes first, on its own line, after a slash.
  if (lines[0]?.startsWith('/') || (option === 'F' && /^[A-Z]{4}\/[A-Z]{2}\//.test(lines[0] ?? ''))) {
    readAccount(lines.shift()!, `${path}/account`, party);
  }
  if (option === 'A') {
    const bic = lines[0]?.toUpperCase() ?? '';
    if (!BIC.test(bic)) throw new PaymentMessageError(`"${bic}" is not a BIC`, `${path}/bic`);
    party.identifiers.push({ type: 'swift-bic', field: `${path}/bic`, value: bic });
    party.countries.push({ field: `${path}/bic`, value: bicCountry(bic) });
  } else if (option === 'F') {
    readStructured(lines, path, party);
  } else if (option === 'D' || option === 'K' || option === ' ') {
    readNameAndAddress(lines, path, party);
  }
  return party;
}

/** `/account`: an IBAN or a wallet is screenable; 50F's `CCPT/DE/123` is a document number. */
function readAccount(line: string, field: string, party: MessageParty): void {
  const coded = line.match(/^([A-Z]{4})\/([A-Z]{2})\/(.+)$/);
  if (coded) {
    const type = PARTY_ID_CODES[coded[1]!];
    if (type) party.identifiers.push({ type, field, value: coded[3]!.trim() });
    return;
  }
  const value = line
    .replace(/^\/(?:[A-Z]\/)?/, '')
    .replace(/^\//, '')
    .trim();
  if (ibanValid(value.replace(/\s/g, ''))) party.identifiers.push({ type: 'iban', field, value });
  else if (looksLikeCryptoAddress(value)) party.identifiers.push({ type: 'crypto-address', field, value });
}

/**
 * Options D, K and field 59: up to four lines of name and address. The name is the first line,
 * joined with the next when it fills all 35 characters (a long name wrapped); the rest is address,
 * whose country is read from the end of its last line ("TEHRAN IRAN", "DAMASCUS, SYRIA").
 */
function readNameAndAddress(lines: string[], path: string, party: MessageParty): void {
  const nameLines = lines[0] !== undefined && lines[0].length >= 35 && lines[1] !== undefined ? 2 : 1;
  const name = lines.slice(0, nameLines).join(' ').trim();
  if (name) party.name = { field: `${path}/name`, value: name };
  lines.slice(nameLines).forEach((line, k) => {
    if (line) party.address.push({ field: `${path}/address/${k + 1}`, value: line });
  });
  const last = party.address[party.address.length - 1];
  const country = last ? countryAtEnd(last.value) : undefined;
  if (last && country) party.countries.push({ field: last.field, value: country });
}

function countryAtEnd(line: string): string | undefined {
  const words = line.split(/[\s,]+/).filter(Boolean);
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const tail = words.slice(-n).join(' ');
    // Names only: a two-letter word at the end of a street line is too often not a country.
    if (tail.length > 3) {
      const code = toIso2(tail);
      if (code) return code;
    }
  }
  return undefined;
}

/** Option F: numbered lines; `1/` name (repeatable), `2/` address, `3/CC/town`. */
function readStructured(lines: string[], path: string, party: MessageParty): void {
  const names: string[] = [];
  lines.forEach((line, k) => {
    const m = line.match(/^([1-8])\/(.*)$/);
    if (!m) throw new PaymentMessageError(`line "${line.slice(0, 40)}" is not numbered (option F)`, `${path}/${k + 1}`);
    const [, n, rest] = m;
    if (n === '1') names.push(rest!.trim());
    else if (n === '2') party.address.push({ field: `${path}/address`, value: rest!.trim() });
    else if (n === '3') {
      const country = normaliseIso2(rest!.slice(0, 2));
      if (!country) throw new PaymentMessageError(`"${rest!.slice(0, 2)}" is not a country code`, `${path}/country`);
      party.countries.push({ field: `${path}/country`, value: country });
      const town = rest!.slice(3).trim();
      if (town) party.address.push({ field: `${path}/town`, value: town });
    } else if (n === '7') {
      const nat = normaliseIso2(rest!.slice(0, 2));
      if (nat) party.countries.push({ field: `${path}/national-id`, value: nat });
      party.identifiers.push({ type: 'national-id', field: `${path}/national-id`, value: rest!.slice(3).trim() });
    }
  });
  if (names.length > 0) party.name = { field: `${path}/name`, value: names.join(' ') };
}
