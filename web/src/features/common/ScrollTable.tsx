import type { ReactNode } from 'react';

interface Props {
  /** The name of the scrolling region. */
  label: string;
  /** Read by screen readers only. */
  caption: ReactNode;
  /** The column heads, in order. */
  head: readonly string[];
  className: string;
  /** The body's rows. */
  children: ReactNode;
}

/**
 * A table with one row of column heads inside a region that scrolls it sideways on a narrow screen; the region is
 * focusable and named so keyboard users can scroll it too.
 */
export function ScrollTable({ label, caption, head, className, children }: Props) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className={className}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
