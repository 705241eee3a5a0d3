import { highlightSegments } from './highlight.js';

/** A name with the words the matcher paired marked, for reading a hit side by side. */
export function HighlightedText({ text, tokens }: { text: string; tokens: Iterable<string> }) {
  return (
    <>
      {highlightSegments(text, tokens).map((segment, i) =>
        segment.matched ? (
          <mark key={i} className="rounded-sm bg-warning-soft px-0.5 text-foreground ring-1 ring-warning/60">
            {segment.text}
          </mark>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}
