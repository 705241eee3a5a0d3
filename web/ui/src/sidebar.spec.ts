import {
  readSidebarCookie,
  SIDEBAR_COOKIE_MAX_AGE_S,
  SIDEBAR_MOBILE_BREAKPOINT_PX,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
} from './sidebar-state.js';

describe('sidebar (spec §2 layout)', () => {
  it('keeps the spec’s sizes, cookie life and breakpoint', () => {
    expect([SIDEBAR_WIDTH, SIDEBAR_WIDTH_MOBILE, SIDEBAR_WIDTH_COLLAPSED]).toEqual(['16rem', '18rem', '3rem']);
    expect(SIDEBAR_COOKIE_MAX_AGE_S).toBe(604_800);
    expect(SIDEBAR_MOBILE_BREAKPOINT_PX).toBe(768);
  });

  it('reads the expanded state from the cookie, expanded when there is none', () => {
    expect(readSidebarCookie('')).toBe(true);
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
    expect(readSidebarCookie('my_sidebar_state=false')).toBe(true);
  });
});
