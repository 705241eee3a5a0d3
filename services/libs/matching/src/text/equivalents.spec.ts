import { equivalenceGroup, equivalentSpellings } from './equivalents.js';

describe('name equivalence table', () => {
  test.each([
    ['mohammed', 'muhammad', 'mohamed', 'mohamad', 'mehmet'],
    ['aleksandr', 'alexander', 'oleksandr', 'alexandr'],
    ['yusuf', 'youssef', 'yousef', 'yousif'],
    ['hussein', 'husayn', 'hossein', 'hussain'],
    ['yevgeniy', 'evgeny', 'yevhen'],
    ['kim', 'gim'],
  ])('%s is one name with its variants', (...names: string[]) => {
    const groups = new Set(names.map(equivalenceGroup));
    expect(groups.size).toBe(1);
    expect([...groups][0]).toBeGreaterThanOrEqual(0);
  });

  test('translations are different names', () => {
    expect(equivalenceGroup('joseph')).not.toBe(equivalenceGroup('yusuf'));
    expect(equivalenceGroup('peter')).toBe(-1);
    expect(equivalenceGroup('john')).toBe(-1);
  });

  test('distinct names stay apart', () => {
    expect(equivalenceGroup('hasan')).not.toBe(equivalenceGroup('husayn'));
    expect(equivalenceGroup('jamal')).not.toBe(equivalenceGroup('jamil'));
  });

  test('lists the spellings of a group', () => {
    expect(equivalentSpellings('yousef')).toEqual(expect.arrayContaining(['yusuf', 'youssef']));
    expect(equivalentSpellings('zzz')).toEqual([]);
  });
});
