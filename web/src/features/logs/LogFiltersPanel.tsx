import { FilterOutlined } from '@ant-design/icons';
import type { ColorLevel } from '@skald/contracts/api';
import { Button, Input, Row, Select } from 'antd';
import { useState } from 'react';
import { LabelledField } from '../common/LabelledField.tsx';
import type { LogFilters } from './logFilters.ts';

interface Props {
  value: LogFilters;
  onChange(next: LogFilters): void;
  /** The server's levels (GET /settings/levels); none while they load. */
  levels?: readonly ColorLevel[];
}

/** Search and resource take a third of a wide screen, the others a sixth; two share a phone's row. */
const WIDE = { xs: 24, md: 12, lg: 8 } as const;
const NARROW = { xs: 12, md: 6, lg: 4 } as const;

// Collapsible filters: Search, Type, Level, Resource, Date from, Date to (docs/spec/part-1.txt section 2).
export function LogFiltersPanel({ value, onChange, levels = [] }: Props) {
  const [open, setOpen] = useState(false);
  const set = (key: keyof LogFilters, next: string) => onChange({ ...value, [key]: next });
  const levelOptions = levels.map((l) => ({ value: l, label: l }));
  // A bar's time range shows (and clears) above the list, not in this form.
  const active = Object.entries(value).filter(([key, v]) => key !== 'timeFrom' && key !== 'timeTo' && v.trim() !== '').length;
  return (
    <div className="filters">
      <Button className="filters-toggle" icon={<FilterOutlined />} onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls="log-filters">
        {open ? 'Hide filters' : 'Show filters'}
        {active > 0 ? ` (${active})` : ''}
      </Button>
      {open && (
        <Row gutter={[12, 12]} id="log-filters" className="filters-grid">
          <LabelledField id="filter-search" label="Search" {...WIDE}>
            <Input id="filter-search" allowClear value={value.search} onChange={(e) => set('search', e.target.value)} placeholder="Message, type, level, resource or metadata" />
          </LabelledField>
          <LabelledField id="filter-type" label="Type" {...NARROW}>
            <Input id="filter-type" allowClear value={value.type} onChange={(e) => set('type', e.target.value)} />
          </LabelledField>
          <LabelledField id="filter-level" label="Level" {...NARROW}>
            <Select id="filter-level" className="full-width" allowClear value={value.level || undefined} onChange={(v?: string) => set('level', v ?? '')} options={levelOptions} placeholder="All" />
          </LabelledField>
          <LabelledField id="filter-resource" label="Resource" {...WIDE}>
            <Input id="filter-resource" allowClear value={value.resource} onChange={(e) => set('resource', e.target.value)} />
          </LabelledField>
          <LabelledField id="filter-from" label="Date from" {...NARROW}>
            <Input id="filter-from" type="date" value={value.dateFrom} onChange={(e) => set('dateFrom', e.target.value)} />
          </LabelledField>
          <LabelledField id="filter-to" label="Date to" {...NARROW}>
            <Input id="filter-to" type="date" value={value.dateTo} onChange={(e) => set('dateTo', e.target.value)} />
          </LabelledField>
        </Row>
      )}
    </div>
  );
}
