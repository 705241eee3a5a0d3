import { suggestPages } from './page-suggestions.js';

const labels = (path: string) => suggestPages(path).map((page) => page.label);

describe('suggestPages', () => {
  it('matches a word of the path to a page name', () => {
    expect(labels('/pricing-plans')).toEqual(['Pricing']);
  });

  it('matches the start of a word, in either direction', () => {
    expect(labels('/doc')).toEqual(['Documentation']);
    expect(labels('/dashboards/old')).toEqual(['Dashboard']);
  });

  it('falls back to the first three pages when nothing matches', () => {
    expect(labels('/zzz')).toEqual(['Home', 'About Us', 'Services']);
  });

  it('never suggests more than three pages', () => {
    expect(suggestPages('/home/about/services/pricing/docs').length).toBe(3);
  });

  it('survives a path that is not valid percent-encoding', () => {
    expect(() => suggestPages('/%E0%A4%A')).not.toThrow();
  });
});
