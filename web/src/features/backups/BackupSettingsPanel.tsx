import { SettingOutlined } from '@ant-design/icons';
import { BACKUP_MIN_INTERVAL_HOURS, validationSentence, type BackupSettings } from '@skald/contracts/api';
import { Alert, Button, Col, Form, Input, Row } from 'antd';
import { useEffect, useState } from 'react';
import { formValues, settingsBody, type SettingsForm } from './backupView.ts';

interface Props {
  settings: BackupSettings;
  saving: boolean;
  onSave(body: ReturnType<typeof settingsBody>): Promise<boolean>;
  /** Why the server refused the last save, shown under the form (the spec's toast says only that it failed). */
  error?: string | null;
}

const INTERVAL_TOO_SHORT = validationSentence({ field: 'interval_hours', rule: 'minimum', limit: BACKUP_MIN_INTERVAL_HOURS });

// Collapsible Backup Settings (docs/spec/part-1.txt sections 2, 4, 5): interval at least 1 (default 24), port default 3306, an
// empty password keeps the stored one. Saving is disabled while busy. noValidate: the number fields keep
// their type, but what a refused value shows is Skald's sentence, not the browser's.
export function BackupSettingsPanel({ settings, saving, onSave, error = null }: Props) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<SettingsForm>();
  // Fresh values from the server (another tab, the first load) replace what the form shows.
  useEffect(() => form.setFieldsValue(formValues(settings)), [form, settings]);

  const submit = async (values: SettingsForm) => {
    if (await onSave(settingsBody(values))) form.setFieldValue('db_pass_enc', '');
  };

  return (
    <section className="backup-settings" aria-labelledby="backup-settings-title">
      <h2 id="backup-settings-title" className="section-title">
        <Button icon={<SettingOutlined />} onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls="backup-settings-form">
          Backup Settings
        </Button>
      </h2>
      <Form form={form} name="backup-settings" id="backup-settings-form" layout="vertical" hidden={!open} initialValues={formValues(settings)} onFinish={(v) => void submit(v)} noValidate>
        <Form.Item name="enabled" valuePropName="checked" label="Scheduled backups enabled" className="checkbox-item">
          <input type="checkbox" className="plain-checkbox" />
        </Form.Item>
        <Row gutter={[12, 0]}>
          <Col xs={24} md={8}>
            <Form.Item label="Interval (hours)" name="interval_hours" rules={[{ validator: async (_r, v: unknown) => { if (v !== '' && Number(v) < BACKUP_MIN_INTERVAL_HOURS) throw new Error(INTERVAL_TOO_SHORT); } }]}>
              <Input type="number" min={1} step={1} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item label="Database host" name="db_host">
              <Input autoComplete="off" placeholder="db.example.com" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item label="Port" name="db_port">
              <Input type="number" min={1} max={65535} inputMode="numeric" placeholder="3306" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Database user" name="db_user">
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Database password" name="db_pass_enc" extra={settings.has_password ? 'A password is stored; leave empty to keep it.' : undefined}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Database name" name="db_name">
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        {error && <Alert type="error" title={error} className="form-alert" showIcon data-testid="backup-settings-error" />}
        <Button type="primary" htmlType="submit" loading={saving} disabled={saving}>
          Save Settings
        </Button>
      </Form>
    </section>
  );
}
