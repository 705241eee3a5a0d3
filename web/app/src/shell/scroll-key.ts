import type { Location } from 'react-router-dom';

/**
 * Where a position is remembered: per history entry, except the first page of a visit, whose
 * key is always "default" — remembering under that key made a page opened directly start where
 * the previous page of the tab had been scrolled to, with the header hidden.
 */
export function scrollKey(location: Location): string {
  return location.key === 'default' ? `direct:${location.pathname}:${performance.timeOrigin}` : location.key;
}
