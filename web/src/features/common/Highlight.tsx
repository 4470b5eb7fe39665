import type { ReactNode } from 'react';

/**
 * Marks where a search term occurs in a text (search hits on /logs and /photologs), case-
 * insensitively like the server's search. The marks keep the card's own colours (bold and underlined,
 * no background of their own), so the level colours' contrast is the same with or without a hit.
 */
export function hitRanges(text: string, term: string): [number, number][] {
  const needle = term.trim().toLowerCase();
  if (needle === '') return [];
  const haystack = text.toLowerCase();
  // toLowerCase can change a string's length (rare letters); then positions would not line up: no marks.
  if (haystack.length !== text.length) return [];
  const ranges: [number, number][] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length]);
  return ranges;
}

export function Highlight({ text, term }: { text: string; term: string | undefined }) {
  const ranges = term ? hitRanges(text, term) : [];
  if (ranges.length === 0) return <>{text}</>;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const [start, end] of ranges) {
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <mark className="hit" key={start}>
        {text.slice(start, end)}
      </mark>,
    );
    last = end;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
