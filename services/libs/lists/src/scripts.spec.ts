import { detectScript } from './scripts.js';

describe('detectScript', () => {
  it.each([
    ['Saddam HUSSEIN', undefined],
    ['José María Naval', undefined],
    ['صدام حسين التكريتي', 'Arab'],
    ['Сергей Викторович Лавров', 'Cyrl'],
    ['Εταιρία περιορισμένης ευθύνης', 'Grek'],
    ['金正恩', 'Hani'],
    ['김정은', 'Hang'],
    ['キム・ジョンウン', 'Jpan'],
    ['אברהם', 'Hebr'],
    ['नरेन्द्र मोदी', 'Deva'],
    ['Общество с ограниченной ответственностью “Inter Tobacco”', 'Cyrl'],
  ])('%s → %s', (name, script) => {
    expect(detectScript(name)).toBe(script);
  });
});
