import { Button, Select, Space, Typography } from 'antd';

interface Props {
  page: number;
  pages: number;
  onPage(next: number): void;
}

/** Previous/Next and 'Page n of m' (spec 000 §2). */
export function Pager({ page, pages, onPage }: Props) {
  return (
    <Space className="pager" wrap>
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </Button>
      <Typography.Text>
        Page {page} of {pages}
      </Typography.Text>
      <Button onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next
      </Button>
    </Space>
  );
}

export function PageSizeSelect({ value, sizes, onChange }: { value: number; sizes: readonly number[]; onChange(size: number): void }) {
  return (
    <Space>
      <label htmlFor="page-size">Per page</label>
      <Select id="page-size" value={value} onChange={onChange} options={sizes.map((s) => ({ value: s, label: String(s) }))} className="page-size" />
    </Space>
  );
}
