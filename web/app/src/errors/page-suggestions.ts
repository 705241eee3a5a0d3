export type SuggestedPage = { label: string; to: string };

/** The pages the spec lets the 404 screen suggest, in its fallback order. */
export const SUGGESTIBLE_PAGES: readonly SuggestedPage[] = [
  { label: 'Home', to: '/' },
  { label: 'About Us', to: '/about-us' },
  { label: 'Services', to: '/services' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'Documentation', to: '/docs' },
  { label: 'Login', to: '/login' },
  { label: 'Dashboard', to: '/dashboard' },
];

const MAX_SUGGESTIONS = 3;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function related(a: string, b: string): boolean {
  return a === b || (a.length >= 3 && b.startsWith(a)) || (b.length >= 3 && a.startsWith(b));
}

/**
 * Up to three pages whose name or path shares a word (or a word's start) with the
 * path that was not found, best first; the first three pages when nothing matches.
 */
export function suggestPages(attemptedPath: string): SuggestedPage[] {
  const attempted = words(safeDecode(attemptedPath));
  const scored = SUGGESTIBLE_PAGES.map((page, order) => {
    const pageWords = [...words(page.label), ...words(page.to)];
    const score = attempted.filter((word) => pageWords.some((pageWord) => related(word, pageWord))).length;
    return { page, order, score };
  })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((entry) => entry.page);

  return (scored.length > 0 ? scored : SUGGESTIBLE_PAGES).slice(0, MAX_SUGGESTIONS);
}
