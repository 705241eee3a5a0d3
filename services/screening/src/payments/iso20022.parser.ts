import type { IdentifierType, PaymentMessageType, PaymentRole } from '@vigil/proto';
import { looksLikeCryptoAddress } from '@vigil/lists';
import { PaymentMessageError, type Located, type MessageParty, type PaymentMessage } from './payment-message.js';
import { at, child, childrenNamed, readXmlTree, textOf, type XmlNode } from './payment-xml.js';

// ISO 20022 customer and FI credit transfers (pacs.008, pacs.009, pain.001), read from the message
// definitions' element names: parties are PartyIdentification (Nm, PstlAdr, Id, CtryOfRes), agents
// BranchAndFinancialInstitutionIdentification (FinInstnId: BICFI, Nm, PstlAdr, LEI); each party's
// account is the sibling element named after its role plus `Acct` (DbtrAcct, IntrmyAgt1Acct).

/** The document's message element for each type (the child of Document). */
const MESSAGE_ELEMENTS: Readonly<Record<string, PaymentMessageType>> = {
  FIToFICstmrCdtTrf: 'pacs.008',
  FICdtTrf: 'pacs.009',
  CstmrCdtTrfInitn: 'pain.001',
};

const ROLE_ELEMENTS: Readonly<Record<string, PaymentRole>> = {
  Dbtr: 'debtor',
  Cdtr: 'creditor',
  UltmtDbtr: 'ultimate-debtor',
  UltmtCdtr: 'ultimate-creditor',
  InitgPty: 'initiating-party',
  DbtrAgt: 'debtor-agent',
  CdtrAgt: 'creditor-agent',
  IntrmyAgt1: 'intermediary-agent',
  IntrmyAgt2: 'intermediary-agent',
  IntrmyAgt3: 'intermediary-agent',
  InstgAgt: 'instructing-agent',
  InstdAgt: 'instructed-agent',
  PrvsInstgAgt1: 'previous-instructing-agent',
  PrvsInstgAgt2: 'previous-instructing-agent',
  PrvsInstgAgt3: 'previous-instructing-agent',
};

/** Free text a name or a wallet can be written into. */
const FREE_TEXT_ELEMENTS = new Set(['Ustrd', 'AddtlRmtInf', 'InstrInf']);

/** `Othr/SchmeNm/Cd` codes (ExternalPersonIdentification1Code, ExternalOrganisationIdentification1Code). */
const SCHEME_CODES: Readonly<Record<string, IdentifierType>> = {
  CCPT: 'passport',
  NIDN: 'national-id',
  TXID: 'tax-id',
  COID: 'registration',
  CUST: 'registration',
};

const located = (node: XmlNode | undefined): Located | undefined => {
  const value = textOf(node);
  return node && value ? { field: node.path, value } : undefined;
};

/** The country letters of a BIC (positions 5 and 6). */
export const bicCountry = (bic: string): string => bic.slice(4, 6).toUpperCase();

function findDocument(root: XmlNode): XmlNode | undefined {
  if (root.name === 'Document') return root;
  for (const c of root.children) {
    const found = findDocument(c);
    if (found) return found;
  }
  return undefined;
}

export function parseIso20022(xml: string): PaymentMessage {
  const root = readXmlTree(xml);
  const document = findDocument(root);
  if (!document) throw new PaymentMessageError('no ISO 20022 Document element', root.path);
  const body = document.children[0];
  const type = body ? MESSAGE_ELEMENTS[body.name] : undefined;
  if (!body || !type) {
    throw new PaymentMessageError(
      `not a pacs.008, pacs.009 or pain.001 message (Document holds ${body?.name ?? 'nothing'})`,
      body?.path ?? document.path,
    );
  }
  const reference = textOf(at(body, 'GrpHdr/MsgId'));
  const parties: MessageParty[] = [];
  const freeText: Located[] = [];
  const visit = (node: XmlNode, parent: XmlNode | undefined) => {
    const role = ROLE_ELEMENTS[node.name];
    if (role) {
      parties.push(partyOf(node, role, parent ? child(parent, `${node.name}Acct`) : undefined));
      return;
    }
    if (FREE_TEXT_ELEMENTS.has(node.name)) {
      const text = located(node);
      if (text) freeText.push(text);
      return;
    }
    for (const c of node.children) visit(c, node);
  };
  visit(body, document);
  const transactions = childrenNamed(body, 'CdtTrfTxInf').length + childrenNamed(body, 'PmtInf').length;
  if (transactions === 0) throw new PaymentMessageError(`a ${type} message without a transaction`, body.path);
  return { type, ...(reference ? { reference } : {}), parties, freeText };
}

function partyOf(node: XmlNode, role: PaymentRole, account: XmlNode | undefined): MessageParty {
  const party: MessageParty = { role, path: node.path, address: [], countries: [], identifiers: [] };
  const institution = child(node, 'FinInstnId');
  const holder = institution ?? node;
  const name = located(child(holder, 'Nm'));
  if (name) party.name = name;
  readAddress(child(holder, 'PstlAdr'), party);
  const bic = located(child(institution, 'BICFI') ?? child(institution, 'BIC') ?? at(node, 'Id/OrgId/AnyBIC'));
  if (bic) {
    party.identifiers.push({ type: 'swift-bic', ...bic });
    party.countries.push({ field: bic.field, value: bicCountry(bic.value) });
  }
  const lei = located(child(institution, 'LEI') ?? at(node, 'Id/OrgId/LEI'));
  if (lei) party.identifiers.push({ type: 'lei', ...lei });
  const residence = located(child(node, 'CtryOfRes'));
  if (residence) party.countries.push(residence);
  const birth = located(at(node, 'Id/PrvtId/DtAndPlcOfBirth/CtryOfBirth'));
  if (birth) party.countries.push(birth);
  for (const id of [...childrenNamed(at(node, 'Id/OrgId'), 'Othr'), ...childrenNamed(at(node, 'Id/PrvtId'), 'Othr')]) {
    const value = located(child(id, 'Id'));
    const type = SCHEME_CODES[textOf(at(id, 'SchmeNm/Cd')) ?? ''];
    if (value && type) party.identifiers.push({ type, ...value });
  }
  readAccount(account, party);
  return party;
}

function readAddress(address: XmlNode | undefined, party: MessageParty): void {
  if (!address) return;
  for (const c of address.children) {
    const value = located(c);
    if (!value) continue;
    if (c.name === 'Ctry') party.countries.push({ ...value, value: value.value.toUpperCase() });
    else party.address.push(value);
  }
}

/** An account is screenable when it is an IBAN or a wallet address (`Othr/Id`). */
function readAccount(account: XmlNode | undefined, party: MessageParty): void {
  const iban = located(at(account, 'Id/IBAN'));
  if (iban) party.identifiers.push({ type: 'iban', ...iban });
  const other = located(at(account, 'Id/Othr/Id'));
  if (other && looksLikeCryptoAddress(other.value)) party.identifiers.push({ type: 'crypto-address', ...other });
}
