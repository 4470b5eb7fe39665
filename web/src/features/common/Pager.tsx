import { Button, Space, Typography } from 'antd';

interface Props {
  page: number;
  pages: number;
  /** The total stopped at the server's count cap: there may be pages past `pages` ('Page n of m+'). */
  more?: boolean;
  /**
   * The spec words its pagers differently per screen: 'Previous' / 'Page n of m' on the server screens
   * (docs/spec/part-1.txt section 2), 'Prev' with 'Page x of y' (admin Logs tab) or 'Page x / y' (admin Photo Logs and
   * Audit Logs tabs, docs/spec/part-2.txt section 2).
   */
  previousLabel?: 'Previous' | 'Prev';
  separator?: 'of' | '/';
  onPage(next: number): void;
}

/** Previous/Next and 'Page n of m'; 'm+' when the server's count was capped. */
export function Pager({ page, pages, more = false, previousLabel = 'Previous', separator = 'of', onPage }: Props) {
  return (
    <Space className="pager" wrap>
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {previousLabel}
      </Button>
      <Typography.Text>
        Page {page} {separator} {pages}
        {more ? '+' : ''}
      </Typography.Text>
      <Button onClick={() => onPage(page + 1)} disabled={page >= pages && !more}>
        Next
      </Button>
    </Space>
  );
}

// A native select (like the sidebar's server switcher): arrow keys, type-ahead and Enter work in
// every browser and with screen readers, which a styled combobox only approximates.
export function PageSizeSelect({ value, sizes, onChange }: { value: number; sizes: readonly number[]; onChange(size: number): void }) {
  return (
    <div className="page-size-field">
      <label htmlFor="page-size">Per page</label>
      <select id="page-size" className="native-select page-size" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {sizes.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
