import type { Entity } from '../entity.js';
import { parseIsoDate } from '../dates.js';
import { EntityDraft, clean } from '../entity-draft.js';
import { decodeStream, type ByteStream } from '../text/decode.js';
import { child, childText, childrenNamed, readXmlRecords, type XmlElement } from '../xml/xml-reader.js';
import {
  addEuAddress,
  addEuBirth,
  addEuCitizenship,
  addEuIdentification,
  addEuName,
  euEntityType,
} from './eu-facts.js';

// EU Financial Sanctions File, XML flavour (namespace http://eu.europa.ec/fpi/fsd/export):
// export/sanctionEntity[@logicalId] with attribute-only children. Streamed one entity at a time.

function toEntity(record: XmlElement): Entity | undefined {
  const logicalId = clean(record.attrs['logicalId']);
  if (!logicalId) return undefined;
  const subject = child(record, 'subjectType');
  const draft = new EntityDraft(
    'eu-fsf',
    logicalId,
    euEntityType(subject?.attrs['classificationCode'] ?? subject?.attrs['code']),
  );
  for (const name of childrenNamed(record, 'nameAlias')) addEuName(draft, name.attrs);
  for (const birth of childrenNamed(record, 'birthdate')) addEuBirth(draft, birth.attrs);
  for (const address of childrenNamed(record, 'address')) addEuAddress(draft, address.attrs);
  for (const identification of childrenNamed(record, 'identification'))
    addEuIdentification(draft, identification.attrs);
  for (const citizenship of childrenNamed(record, 'citizenship')) addEuCitizenship(draft, citizenship.attrs);
  for (const regulation of childrenNamed(record, 'regulation')) {
    draft.addProgram(regulation.attrs['programme']);
    draft.sourceUrl ??= childText(regulation, 'publicationUrl') || undefined;
  }
  for (const remark of childrenNamed(record, 'remark')) draft.addRemarks(remark.text);
  draft.setListedOn(parseIsoDate(record.attrs['designationDate']));
  return draft.build();
}

/** Parse the EU FSF XML export, streaming one entity per sanctionEntity. */
export async function* parseEuXml(bytes: ByteStream): AsyncGenerator<Entity> {
  const isRecord = (name: string, depth: number): boolean => name === 'sanctionEntity' && depth === 1;
  for await (const record of readXmlRecords(decodeStream(bytes), isRecord)) {
    const entity = toEntity(record);
    if (entity) yield entity;
  }
}
