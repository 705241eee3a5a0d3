import type { Entity, EntityType, ListId } from '../entity.js';
import { toIso2 } from '../countries/countries.js';
import { readCsvBatches } from '../csv/csv-reader.js';
import { EntityDraft, clean, splitCommaName } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import { applyOfacRemarks, parseOfacRemarks } from './ofac-remarks.js';

// OFAC's legacy CSV set: four header-less files joined on ent_num. The same layout serves the
// SDN list (sdn.csv, add.csv, alt.csv, sdn_comments.csv) and the consolidated non-SDN list
// (cons_prim.csv, cons_add.csv, cons_alt.csv, cons_comments.csv). "-0-" (often "-0- ") is
// OFAC's null; remarks longer than 1,000 characters are cut in the main file and continue,
// mid-word, in the comments file; that file ends with a 0x1A byte.

export type OfacCsvFiles = {
  /** sdn.csv or cons_prim.csv: ent_num, name, type, program, title, call sign, vessel type, tonnage, GRT, flag, owner, remarks */
  main: ByteStream;
  /** add.csv: ent_num, add_num, address, city/state/postal code, country, add_remarks */
  addresses?: ByteStream;
  /** alt.csv: ent_num, alt_num, alt_type, alt_name, alt_remarks */
  aliases?: ByteStream;
  /** sdn_comments.csv: ent_num, remarks continuation */
  comments?: ByteStream;
};

/** OFAC's null marker is "-0-", sometimes padded: "-0- ". */
export function ofacValue(field: string | undefined): string {
  const v = clean(field);
  return v === '-0-' ? '' : v;
}

const TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  vessel: 'vessel',
  aircraft: 'aircraft',
  entity: 'organization',
  '': 'organization',
};

/** "SDGT] [SYRIA" (OFAC's bracketed multi-program field) → ["SDGT", "SYRIA"]. */
export function splitOfacPrograms(field: string): string[] {
  return ofacValue(field)
    .split(/\]\s*\[/)
    .map((p) => p.replace(/^\[|\]$/g, '').trim())
    .filter(Boolean);
}

const ALIAS_KINDS: Readonly<Record<string, string>> = { aka: 'aka', fka: 'fka', nka: 'nka' };

async function* records(bytes: ByteStream | undefined): AsyncGenerator<string[][]> {
  if (!bytes) return;
  // The legacy files are ASCII in practice; Windows-1252 decodes any stray byte losslessly.
  yield* readCsvBatches(decodeStream(bytes, 'windows-1252'));
}

// Per-row work lives in plain functions, which V8 optimises on their own, apart from the
// async parser's state machine.

function mainRow(fields: string[], listId: ListId, continuation: ReadonlyMap<string, string>): EntityDraft | undefined {
  const entNum = clean(fields[0]);
  if (!/^\d+$/.test(entNum)) return undefined;
  const typeText = ofacValue(fields[2]).toLowerCase();
  const type = TYPES[typeText] ?? 'organization';
  const draft = new EntityDraft(listId, entNum, type);
  const name = ofacValue(fields[1]);
  draft.addName(name, 'primary', { parts: type === 'individual' ? splitCommaName(name) : undefined });
  for (const program of splitOfacPrograms(fields[3] ?? '')) draft.addProgram(program);
  const title = ofacValue(fields[4]);
  if (title) draft.addPosition(title);
  const callSign = ofacValue(fields[5]);
  if (callSign) draft.addIdentifier({ type: 'call-sign', value: callSign });
  const flag = toIso2(ofacValue(fields[9]));
  if (flag) draft.flag = flag;
  // Remarks are joined raw (not whitespace-collapsed) because the continuation can start in
  // the middle of a word.
  const remarks = clean((fields[11] && ofacValue(fields[11]) ? fields[11] : '') + (continuation.get(entNum) ?? ''));
  if (remarks) {
    draft.addRemarks(remarks);
    applyOfacRemarks(draft, parseOfacRemarks(remarks));
  }
  draft.sourceUrl = `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${entNum}`;
  return draft;
}

function aliasRow(r: string[], drafts: ReadonlyMap<string, EntityDraft>): void {
  const draft = drafts.get(clean(r[0]));
  if (!draft) return;
  const altType = ofacValue(r[2]).toLowerCase();
  const name = ofacValue(r[3]);
  const remark = ofacValue(r[4]).toLowerCase();
  const weak = altType.includes('weak') || remark.includes('weak');
  const kind = ALIAS_KINDS[altType.replace(/[^a-z]/g, '').replace(/^weak/, '')] ?? 'aka';
  draft.addName(name, weak ? 'weak' : 'strong', {
    kind,
    parts: draft.type === 'individual' ? splitCommaName(name) : undefined,
  });
}

function addressRow(r: string[], drafts: ReadonlyMap<string, EntityDraft>): void {
  const draft = drafts.get(clean(r[0]));
  if (!draft) return;
  const street = ofacValue(r[2]);
  const city = ofacValue(r[3]);
  const country = ofacValue(r[4]);
  const remark = ofacValue(r[5]);
  draft.addAddress({
    street,
    city,
    countryText: country,
    full: [street, city, country].filter(Boolean).join(', ') + (remark ? ` (${remark})` : ''),
  });
}

/** Parse an OFAC legacy CSV set into entities, in the order of the main file. */
export async function parseOfacCsv(files: OfacCsvFiles, listId: ListId = 'ofac-sdn'): Promise<Entity[]> {
  // The comments file is small and completes the main file's remarks, so it is read first
  // and each main row becomes a draft as soon as it is read.
  const continuation = new Map<string, string>();
  for await (const batch of records(files.comments)) {
    for (const r of batch) {
      const entNum = clean(r[0]);
      if (/^\d+$/.test(entNum)) continuation.set(entNum, (continuation.get(entNum) ?? '') + (r[1] ?? ''));
    }
  }
  const drafts = new Map<string, EntityDraft>();
  for await (const batch of records(files.main)) {
    for (const fields of batch) {
      const draft = mainRow(fields, listId, continuation);
      if (draft) drafts.set(draft.sourceId, draft);
    }
  }
  for await (const batch of records(files.aliases)) for (const r of batch) aliasRow(r, drafts);
  for await (const batch of records(files.addresses)) for (const r of batch) addressRow(r, drafts);

  const out: Entity[] = [];
  for (const draft of drafts.values()) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}
