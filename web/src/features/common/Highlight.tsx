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

/**
 * `text` with the `ranges` of hits inside it marked. `text` may be one piece of a longer text that starts at
 * `offset` in it (the ranges are the longer text's): the parts of ranges outside the piece are left out.
 */
export function markRanges(text: string, ranges: readonly [number, number][], offset = 0): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const [start, end] of ranges) {
    const from = Math.max(start - offset, last);
    const to = Math.min(end - offset, text.length);
    if (to <= from) continue;
    if (from > last) parts.push(text.slice(last, from));
    parts.push(
      <mark className="hit" key={from}>
        {text.slice(from, to)}
      </mark>,
    );
    last = to;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function Highlight({ text, term }: { text: string; term: string | undefined }) {
  return <>{markRanges(text, term ? hitRanges(text, term) : [])}</>;
}
