import type { ExportType } from '@skald/contracts/api';
import { Button, Checkbox, Col, Empty, Input, Modal, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { errorText, statusOf } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useToast } from '../../app/toast.tsx';
import { LabelledField } from '../common/LabelledField.tsx';
import { Panel } from '../common/Panel.tsx';
import { userTimeZone } from '../logs/userTimeZone.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { exportFilename, localDay, useDownloadExportMutation, useExportStatusQuery } from './exportsApi.ts';

// docs/spec/part-2.txt sections 2, 8, as written.
export const EXPORT_TEXT = {
  limitTitle: 'Export limit reached',
  limitBody: "You've reached your export limit for this month. Please try again later.",
  noTypes: 'Select at least one log type!',
  busy: 'Exporting...',
  csvFailed: (message: string) => `Export failed: ${message}`,
  pdfFailed: (message: string) => `PDF Export failed: ${message}`,
  generic: 'Something went wrong.',
  noServer: 'Please select a server to export its logs.',
} as const;

const KINDS: readonly { type: ExportType; label: string }[] = [
  { type: 'logs', label: 'Logs' },
  { type: 'photologs', label: 'Photo Logs' },
  { type: 'auditlogs', label: 'Audit Logs' },
];

/** Which button runs: `${type}-csv`, `${type}-pdf` or 'custom'. */
type Job = string;

interface CustomForm {
  types: ExportType[];
  level: string;
  type: string;
  resource: string;
  from: string;
  to: string;
}

export default function ExportsPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const toast = useToast();
  const status = useExportStatusQuery(serverId ?? '', { skip: !serverId });
  const [download] = useDownloadExportMutation();
  const [job, setJob] = useState<Job | null>(null);
  const [limitOpen, setLimitOpen] = useState(false);
  const [form, setForm] = useState<CustomForm>(() => ({ types: ['logs'], level: '', type: '', resource: '', from: localDay(), to: localDay() }));

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Export Logs</PageTitle>
        <Empty description={EXPORT_TEXT.noServer} />
      </div>
    );
  }

  const run = async (id: Job, path: string, filename: string, failed: (message: string) => string) => {
    setJob(id);
    try {
      await download({ serverId, path, filename }).unwrap();
    } catch (err) {
      if (statusOf(err) === 429) setLimitOpen(true);
      else toast.error(failed(errorText(err, EXPORT_TEXT.generic)));
    } finally {
      setJob(null);
    }
  };

  const server = `serverId=${encodeURIComponent(serverId)}`;
  const exportCsv = (type: ExportType) => run(`${type}-csv`, `/exports/${type}?${server}`, exportFilename(type, 'csv'), EXPORT_TEXT.csvFailed);
  const exportPdf = (type: ExportType) => run(`${type}-pdf`, `/exports/${type}/pdf?${server}`, exportFilename(type, 'pdf'), EXPORT_TEXT.pdfFailed);
  const exportCustom = () => {
    if (form.types.length === 0) {
      toast.error(EXPORT_TEXT.noTypes);
      return;
    }
    // Filters go only when filled (docs/spec/part-2.txt section 7); the days are the user's own (timeZone).
    const params = new URLSearchParams({ serverId, types: form.types.join(',') });
    for (const key of ['level', 'type', 'resource', 'from', 'to'] as const) if (form[key].trim() !== '') params.set(key, form[key].trim());
    const zone = userTimeZone();
    if (zone) params.set('timeZone', zone);
    return run('custom', `/exports/custom?${params.toString()}`, exportFilename('custom', 'csv'), EXPORT_TEXT.csvFailed);
  };

  const button = (id: Job, label: string, onClick: () => unknown, ariaLabel: string) => (
    <Button onClick={() => void onClick()} loading={job === id} disabled={job !== null && job !== id} aria-label={job === id ? `${EXPORT_TEXT.busy} ${ariaLabel}` : ariaLabel}>
      {job === id ? EXPORT_TEXT.busy : label}
    </Button>
  );
  const set = <K extends keyof CustomForm>(key: K, value: CustomForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <div className="page">
      <PageTitle>Export Logs – {serverName}</PageTitle>
      {status.data && (
        <Typography.Paragraph className="count-line" data-testid="export-usage">
          {status.data.used} / {status.data.limit} exports used this month
        </Typography.Paragraph>
      )}
      <Row gutter={[16, 16]}>
        {KINDS.map(({ type, label }) => (
          <Col xs={24} md={8} key={type}>
            <Panel title={label} data-testid={`export-card-${type}`}>
              <Space wrap>
                {button(`${type}-csv`, 'CSV', () => exportCsv(type), `Export ${label} as CSV`)}
                {button(`${type}-pdf`, 'PDF', () => exportPdf(type), `Export ${label} as PDF`)}
              </Space>
            </Panel>
          </Col>
        ))}
      </Row>
      <Panel title="Custom Export">
        <fieldset className="export-types">
          <legend className="field-label">Log types</legend>
          <Checkbox.Group
            value={form.types}
            onChange={(values) => set('types', values as ExportType[])}
            options={KINDS.map(({ type, label }) => ({ value: type, label }))}
          />
        </fieldset>
        <Row gutter={[16, 0]}>
          {(['level', 'type', 'resource'] as const).map((key) => (
            <LabelledField id={`export-${key}`} label={key[0]!.toUpperCase() + key.slice(1)} xs={24} md={8} key={key}>
              <Input id={`export-${key}`} value={form[key]} onChange={(e) => set(key, e.target.value)} />
            </LabelledField>
          ))}
          <LabelledField id="export-from" label="Start Date" xs={24} md={8}>
            <Input id="export-from" type="date" value={form.from} onChange={(e) => set('from', e.target.value)} />
          </LabelledField>
          <LabelledField id="export-to" label="End Date" xs={24} md={8}>
            <Input id="export-to" type="date" value={form.to} onChange={(e) => set('to', e.target.value)} />
          </LabelledField>
        </Row>
        <div className="export-custom-action">{button('custom', 'Export Custom Selection CSV', exportCustom, 'Export Custom Selection CSV')}</div>
      </Panel>
      <Modal open={limitOpen} title={EXPORT_TEXT.limitTitle} closable={false} onCancel={() => setLimitOpen(false)} footer={<Button onClick={() => setLimitOpen(false)}>Close</Button>} destroyOnHidden>
        <Typography.Paragraph>{EXPORT_TEXT.limitBody}</Typography.Paragraph>
      </Modal>
    </div>
  );
}
