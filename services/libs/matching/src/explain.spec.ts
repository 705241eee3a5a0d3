import { CandidateIndex } from './index/candidate-index.js';
import { explainMatch } from './explain.js';
import { entity } from './testing/fixtures.js';

test('an explanation names the list entry, the matched alias, each token with method, score and weight, and qualifiers', () => {
  const idx = new CandidateIndex([entity('35233', 'individual', ['LAVROV, Sergei Viktorovich', 'LAVROV, Sergey'], { birthDates: ['1950-03-21'] })]);
  const text = explainMatch(idx.screen({ name: 'Serej Lavrov', dob: '1950' })[0]!, 1);
  expect(text).toMatch(/^#1 (BLOCKED|REVIEW) \d+\.\d% {2}ofac-sdn:35233 {2}LAVROV, Sergei Viktorovich \(individual\)/);
  expect(text).toMatch(/matched strong alias "LAVROV, Sergey"/);
  expect(text).toMatch(/serej +→ sergey +phonetic +score 0\.\d\d +weight \d\.\d\d/);
  expect(text).toMatch(/lavrov +→ lavrov +exact +score 1\.00/);
  expect(text).toMatch(/\+0\.020 dob: date of birth 1950 agrees/);
});
