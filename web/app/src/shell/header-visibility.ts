import { useEffect, useState } from 'react';

/** The spec's rule: the header may hide only once the page is scrolled past this many pixels. */
export const HEADER_HIDE_AFTER_PX = 100;

export type HeaderScroll = { visible: boolean; lastY: number };

/**
 * Next header state for a new scroll position: hidden while scrolling down past
 * the threshold, shown again as soon as the reader scrolls up or is back near the top.
 */
export function nextHeaderScroll(previous: HeaderScroll, y: number, threshold = HEADER_HIDE_AFTER_PX): HeaderScroll {
  if (y <= threshold) return { visible: true, lastY: y };
  if (y > previous.lastY) return { visible: false, lastY: y };
  if (y < previous.lastY) return { visible: true, lastY: y };
  return previous;
}

/** Tracks window scrolling, at most once per animation frame. */
export function useHeaderVisible(): boolean {
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    let state: HeaderScroll = { visible: true, lastY: window.scrollY };
    let frame = 0;
    const onScroll = () => {
      if (frame !== 0) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        state = nextHeaderScroll(state, window.scrollY);
        setVisible(state.visible);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, []);

  return visible;
}
