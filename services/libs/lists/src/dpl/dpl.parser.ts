import type { Entity } from '../entity.js';
import { normaliseIso2 } from '../countries/countries.js';
import { readCsvBatches } from '../csv/csv-reader.js';
import { parseDate } from '../dates.js';
import { EntityDraft, clean, inferTypeFromName } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';

// US BIS Denied Persons List: tab-separated, quoted, with a header row, one row per name and
// address. BIS publishes no id, so the row key is derived from what identifies a denial order:
// the denied party's name and the order's effective date,
//   sourceId = "<NAME IN UPPER CASE, NON-ALPHANUMERICS AS '-'>/<effective date YYYY-MM-DD>",
// e.g. "ABDULAH-AL-NASSER/2002-03-04". Rows sharing that key (one party, several addresses)
// are merged into one entity. Both parts are fixed when the order is issued, so the key is
// stable across snapshots. The list does not say whether a party is a person; that is
// inferred from the name and flagged typeInferred.

const COLUMNS = [
  'name',
  'street_address',
  'city',
  'state',
  'country',
  'postal_code',
  'effective_date',
  'expiration_date',
  'action',
  'fr_citation',
  'last_update',
] as const;
type Column = (typeof COLUMNS)[number];

/** The derived DPL row key: normalised name + "/" + effective date. */
export function dplSourceId(name: string, effectiveDate: string): string {
  const slug = clean(name)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const date = parseDate(effectiveDate, 'mdy') ?? clean(effectiveDate);
  return date ? `${slug}/${date}` : slug;
}

/** Parse the BIS DPL tab-separated file. */
export async function parseDplTsv(bytes: ByteStream): Promise<Entity[]> {
  let index: Map<Column, number> | undefined;
  const drafts = new Map<string, EntityDraft>();
  for await (const batch of readCsvBatches(decodeStream(bytes), { delimiter: '\t' }))
    for (const record of batch) {
      if (!index) {
        index = new Map();
        for (const column of COLUMNS)
          index.set(
            column,
            record.findIndex((h) => clean(h).toLowerCase() === column),
          );
        continue;
      }
      const get = (column: Column): string => {
        const at = index?.get(column) ?? -1;
        return at < 0 ? '' : clean(record[at]);
      };
      const name = get('name');
      if (!name || name.toLowerCase() === 'name') continue;
      const effective = get('effective_date');
      const id = dplSourceId(name, effective);
      let draft = drafts.get(id);
      if (!draft) {
        draft = new EntityDraft('us-bis-dpl', id, inferTypeFromName(name));
        draft.typeInferred = true;
        draft.setListedOn(parseDate(effective, 'mdy'));
        draft.sourceUrl =
          'https://www.bis.doc.gov/index.php/policy-guidance/lists-of-parties-of-concern/denied-persons-list';
        drafts.set(id, draft);
      }
      draft.addName(name, 'primary');
      const street = get('street_address');
      const city = get('city');
      const state = get('state');
      const postalCode = get('postal_code');
      const countryCode = get('country');
      draft.addAddress({
        street,
        city,
        region: state,
        postalCode,
        country: normaliseIso2(countryCode),
        full: [street, city, state, postalCode, countryCode].filter(Boolean).join(', '),
      });
      const remarks = [get('action'), get('fr_citation')].filter(Boolean).join('; ');
      draft.addRemarks(remarks);
    }
  const out: Entity[] = [];
  for (const draft of drafts.values()) {
    const entity = draft.build();
    if (entity) out.push(entity);
  }
  return out;
}
