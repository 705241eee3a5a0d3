// Issue #32: an original-script name one list publishes must find the same party on the lists
// that publish it in Latin letters only (the UN gives "خالد عبد الرحمن حمد الفواز"; OFAC and the UK
// list "AL-FAWAZ, Khalid Abd al-Rahman Hamd"). vigil-v3 lends each record its twins' originals.
import type { Entity } from '@vigil/lists';
import { VIGIL_V2, VIGIL_V3 } from '../algorithm.js';
import { explainMatch } from '../explain.js';
import { entity } from '../testing/fixtures.js';
import { twinNames } from './twins.js';

const ARABIC = 'خالد عبد الرحمن حمد الفواز';
const HAN = '長安海連技術有限公司';

const LIST: Entity[] = [
  entity(
    'QDi.059',
    'individual',
    ['KHALID ABD AL-RAHMAN HAMD AL-FAWAZ', { full: ARABIC, kind: 'original-script', script: 'Arab' }],
    { birthDates: ['1962'] },
    'un-sc',
  ),
  entity('7209', 'individual', ['AL-FAWAZ, Khalid Abd al-Rahman Hamd'], { birthDates: ['1962-08-24'] }),
  entity(
    'KPe.055',
    'organization',
    ['CHANG AN SHIPPING & TECHNOLOGY', { full: HAN, kind: 'original-script', script: 'Hani' }],
    {},
    'un-sc',
  ),
  entity('23763', 'organization', ['CHANG AN SHIPPING & TECHNOLOGY']),
  // two words and birth years that differ: two people who share a common name, not twins
  entity(
    'TAi.999',
    'individual',
    ['MOHAMMAD HASSAN', { full: 'محمد حسن', kind: 'original-script', script: 'Arab' }],
    { birthDates: ['1970'] },
    'un-sc',
  ),
  entity('9999', 'individual', ['HASSAN, Mohammad'], { birthDates: ['1985'] }),
  entity('filler-1', 'individual', ['AL-ASSAD, Bashar']),
  entity('filler-2', 'organization', ['GLOBAL TRADING LLC']),
  entity('filler-3', 'individual', ['PETROV, Ivan']),
];

const flagged = (name: string, algorithm = VIGIL_V3) =>
  algorithm
    .build(LIST)
    .screen({ name })
    .filter((m) => m.status !== 'clear');

describe('twin names (vigil-v3)', () => {
  test('a long Arabic original finds the OFAC record that lists the party in Latin letters only, and says whose name it is', () => {
    const found = flagged(ARABIC);
    expect(found.map((m) => m.entity.sourceId)).toEqual(['QDi.059', '7209']);
    const twin = found[1]!;
    expect(twin.matchedName).toBe(ARABIC);
    expect(twin.qualifiers).toContainEqual({
      qualifier: 'twinName',
      effect: 0,
      detail: expect.stringContaining('un-sc QDi.059'),
    });
    expect(explainMatch(twin)).toContain(`matched twin record's name "${ARABIC}"`);
    // the record a client sees still carries only what its list says
    expect(twin.entity.names.map((n) => n.full)).toEqual(['AL-FAWAZ, Khalid Abd al-Rahman Hamd']);
  });

  test('a Han original finds its twin too; the list that wrote the name ranks first at an equal score', () => {
    const found = flagged(HAN);
    expect(found.map((m) => [m.entity.sourceId, m.score])).toEqual([
      ['KPe.055', 1],
      ['23763', 1],
    ]);
  });

  test('vigil-v2 does not lend names: a Han original misses its twin, whose Latin name is a translation', () => {
    expect(flagged(HAN, VIGIL_V2).map((m) => m.entity.sourceId)).toEqual(['KPe.055']);
  });

  test('records sharing only a two-word name with different birth years are not twins', () => {
    const lent = twinNames(LIST);
    expect([...lent.keys()].map((e) => e.sourceId).sort()).toEqual(['23763', '7209']);
    expect(flagged('محمد حسن').map((m) => m.qualifiers.some((q) => q.qualifier === 'twinName'))).not.toContain(true);
  });
});
