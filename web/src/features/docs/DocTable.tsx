import type { ReactNode } from 'react';

/**
 * A reference table of the documentation pages (fields, events, tiers): one header row of column
 * scopes, a caption for screen readers, and rows given as data, so each page states only its content.
 * `rowHeaders`: the first cell of each row names the row (`<th scope="row">`), as in the roles table.
 */
export function DocTable({ caption, head, rows, rowHeaders = false }: { caption: string; head: readonly string[]; rows: readonly (readonly ReactNode[])[]; rowHeaders?: boolean }) {
  return (
    <table>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, r) => (
          <tr key={r}>
            {cells.map((cell, c) =>
              rowHeaders && c === 0 ? (
                <th key={c} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={c}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
