// Small lists in the official formats, written per test so each test controls its versions.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type SdnRow = { id: number; name: string; type?: 'individual' | 'vessel' | 'aircraft'; programs: string; remarks?: string };

const q = (value: string) => `"${value.replace(/"/g, '""')}"`;
const NULL = '-0- ';

export async function writeSdn(dir: string, rows: SdnRow[], aliases: Array<[number, string]> = []): Promise<void> {
  await mkdir(join(dir, 'ofac_sdn'), { recursive: true });
  const lines = rows.map((r) =>
    [String(r.id), q(r.name), r.type ? q(r.type) : NULL, q(r.programs), NULL, NULL, NULL, NULL, NULL, NULL, NULL, r.remarks ? q(r.remarks) : NULL].join(','),
  );
  await writeFile(join(dir, 'ofac_sdn', 'sdn.csv'), lines.join('\r\n') + '\r\n');
  const alt = aliases.map(([id, name], i) => [String(id), String(5000 + i), q('aka'), q(name), NULL].join(','));
  await writeFile(join(dir, 'ofac_sdn', 'alt.csv'), alt.join('\r\n') + '\r\n');
}

export type UnRow = { ref: string; first: string; second?: string; year?: string };

export function unXml(individuals: UnRow[], entities: Array<{ ref: string; name: string }> = []): string {
  const ind = individuals
    .map(
      (r, i) => `<INDIVIDUAL><DATAID>${1000 + i}</DATAID><VERSIONNUM>1</VERSIONNUM><FIRST_NAME>${r.first}</FIRST_NAME>${r.second ? `<SECOND_NAME>${r.second}</SECOND_NAME>` : ''}
<UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE><REFERENCE_NUMBER>${r.ref}</REFERENCE_NUMBER><LISTED_ON>2010-01-01</LISTED_ON>
${r.year ? `<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><YEAR>${r.year}</YEAR></INDIVIDUAL_DATE_OF_BIRTH>` : ''}</INDIVIDUAL>`,
    )
    .join('\n');
  const ent = entities
    .map((e, i) => `<ENTITY><DATAID>${2000 + i}</DATAID><VERSIONNUM>1</VERSIONNUM><FIRST_NAME>${e.name}</FIRST_NAME><UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE><REFERENCE_NUMBER>${e.ref}</REFERENCE_NUMBER><LISTED_ON>2010-01-01</LISTED_ON></ENTITY>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<CONSOLIDATED_LIST dateGenerated="2026-01-01T00:00:00Z">\n<INDIVIDUALS>\n${ind}\n</INDIVIDUALS>\n<ENTITIES>\n${ent}\n</ENTITIES>\n</CONSOLIDATED_LIST>\n`;
}

export async function writeUn(dir: string, xml: string): Promise<void> {
  await mkdir(join(dir, 'un_sc'), { recursive: true });
  await writeFile(join(dir, 'un_sc', 'consolidated.xml'), xml);
}

export async function writePeps(dir: string, people: Array<{ id: string; name: string; email?: string }>): Promise<void> {
  await mkdir(join(dir, 'opensanctions', 'peps'), { recursive: true });
  const lines = people.map((p) =>
    JSON.stringify({
      id: p.id,
      caption: p.name,
      schema: 'Person',
      properties: { name: [p.name], topics: ['role.pep'], position: ['Minister (test)'], ...(p.email ? { email: [p.email] } : {}) },
      datasets: ['peps'],
      target: true,
    }),
  );
  await writeFile(join(dir, 'opensanctions', 'peps', 'entities.ftm.json'), lines.join('\n') + '\n');
}

export const SDN_V1: SdnRow[] = [
  { id: 101, name: 'BOUT, Viktor Anatolyevich', type: 'individual', programs: 'SDGT', remarks: 'DOB 13 Jan 1967; nationality Russia.' },
  { id: 102, name: 'AEROCARIBBEAN AIRLINES', programs: 'CUBA' },
  { id: 103, name: 'KADYROV, Ramzan Akhmatovich', type: 'individual', programs: 'RUSSIA-EO14024' },
  { id: 104, name: 'BANCO NACIONAL DE CUBA', programs: 'CUBA', remarks: "a.k.a. 'BNC'." },
  { id: 105, name: 'IRAN HORMUZ 12', type: 'vessel', programs: 'IRAN' },
];

export const UN_V1 = unXml(
  [
    { ref: 'QDi.001', first: 'HANI', second: 'AL-SIBAI', year: '1963' },
    { ref: 'CDi.002', first: 'ERIC', second: 'BADEGE', year: '1971' },
  ],
  [{ ref: 'QDe.003', name: 'AL RASHID TRUST' }],
);

export const PEPS_V1 = [
  { id: 'pep-1', name: 'Marisol Ventura Quiroga' },
  { id: 'pep-2', name: 'Tomasz Wieczorek', email: 'tomasz@parliament.example' },
];

/** One folder with SDN (ofac), UN (sanctions) and PEPs (peps), version 1. */
export async function writeV1(dir: string): Promise<void> {
  await writeSdn(dir, SDN_V1, [[101, 'BUT, Viktor']]);
  await writeUn(dir, UN_V1);
  await writePeps(dir, PEPS_V1);
}
