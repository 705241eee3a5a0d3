import { nextHeaderScroll, type HeaderScroll } from './header-visibility.js';

function scrollThrough(positions: number[]): boolean[] {
  let state: HeaderScroll = { visible: true, lastY: 0 };
  return positions.map((y) => {
    state = nextHeaderScroll(state, y);
    return state.visible;
  });
}

describe('nextHeaderScroll', () => {
  it('stays visible while scrolling down within the first 100 px', () => {
    expect(scrollThrough([20, 60, 100])).toEqual([true, true, true]);
  });

  it('hides once scrolling down goes past 100 px', () => {
    expect(scrollThrough([80, 101, 400])).toEqual([true, false, false]);
  });

  it('comes back on the first upward scroll, even far down the page', () => {
    expect(scrollThrough([300, 900, 880])).toEqual([false, false, true]);
  });

  it('hides again when the reader turns back down', () => {
    expect(scrollThrough([300, 900, 880, 950])).toEqual([false, false, true, false]);
  });

  it('keeps its state when the position does not change', () => {
    expect(scrollThrough([500, 500])).toEqual([false, false]);
  });
});
