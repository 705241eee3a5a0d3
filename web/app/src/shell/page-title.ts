import { useEffect } from 'react';

/** Sets the tab title as "{page} · Vigil"; every page has its own (checked by the browser tests). */
export function usePageTitle(page: string) {
  useEffect(() => {
    document.title = `${page} · Vigil`;
  }, [page]);
}
