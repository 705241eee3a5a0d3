/** Spec §2 sidebar layout: widths, the state cookie's life and the mobile breakpoint. */
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_COLLAPSED = '3rem';
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;
export const SIDEBAR_MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_KEYBOARD_SHORTCUT = 'b';

/** The expanded state the cookie remembers, or true when there is none. */
export function readSidebarCookie(cookie: string): boolean {
  const match = new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE_NAME}=(true|false)`).exec(cookie);
  return match ? match[1] === 'true' : true;
}
