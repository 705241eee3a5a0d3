import { usageView } from './usage.js';

describe('usageView', () => {
  it('is calm below 75%', () => {
    expect(usageView(740, 1000)).toEqual({ percent: 74, banner: 'none', quota: 'normal', tone: 'success', message: null });
  });

  it('shows the Usage Notice from 75%', () => {
    expect(usageView(750, 1000).banner).toBe('notice');
    expect(usageView(750, 1000).quota).toBe('normal');
  });

  it('warns about the quota from 80%', () => {
    expect(usageView(800, 1000)).toEqual({ percent: 80, banner: 'notice', quota: 'warning', tone: 'warning', message: 'Quota usage high' });
  });

  it('raises the High Usage Warning from 90% and calls the quota exceeded at 100%', () => {
    expect(usageView(900, 1000)).toMatchObject({ banner: 'high', quota: 'warning', tone: 'destructive', message: 'Quota almost exhausted!' });
    expect(usageView(1000, 1000).quota).toBe('exceeded');
    expect(usageView(1200, 1000)).toMatchObject({ percent: 120, quota: 'exceeded' });
  });

  it('rounds to whole percent and survives a zero quota', () => {
    expect(usageView(1, 3).percent).toBe(33);
    expect(usageView(5, 0).percent).toBe(0);
  });
});
