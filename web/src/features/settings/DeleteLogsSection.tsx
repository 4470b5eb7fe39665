import { Alert, Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { useToast } from '../../app/toast.tsx';
import { logsDeletedText, parseDays, SETTINGS_TEXT, useCleanupLogsMutation } from './settingsApi.ts';

/**
 * Delete Logs (docs/spec/part-2.txt sections 2, 5, 7): logs older than the given days go (0 deletes every log), after a
 * confirmation dialog; the answer's count shows as 'Logs deleted: N'.
 */
export function DeleteLogsSection({ serverId }: { serverId: string }) {
  const toast = useToast();
  const [input, setInput] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [cleanup, cleaning] = useCleanupLogsMutation();
  const days = parseDays(input);

  const confirm = async () => {
    if (days === null) return;
    try {
      const { deletedCount } = await cleanup({ serverId, days }).unwrap();
      setConfirming(false);
      toast.success(logsDeletedText(deletedCount));
    } catch {
      setConfirming(false);
      toast.error(SETTINGS_TEXT.cleanupFailed);
    }
  };

  return (
    <section aria-labelledby="delete-heading" className="settings-section">
      <h2 id="delete-heading" className="section-title">
        Delete Logs
      </h2>
      <p>Deletes the text and photo logs older than this many days; 0 deletes them all.</p>
      <label className="field-label" htmlFor="cleanup-days">
        Days
      </label>
      <Input
        id="cleanup-days"
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        className="days-input"
        aria-invalid={days === null}
        aria-describedby={days === null ? 'cleanup-days-error' : undefined}
      />
      {days === null && <Alert id="cleanup-days-error" type="warning" title={SETTINGS_TEXT.invalidDays} className="form-alert" showIcon />}
      <Button disabled={days === null} onClick={() => setConfirming(true)} className="form-submit">
        Delete Logs
      </Button>
      <Modal
        open={confirming}
        title="Delete logs?"
        okText="Delete"
       
        confirmLoading={cleaning.isLoading}
        onOk={() => void confirm()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <p>{days === 0 ? 'Every log of this server will be deleted.' : `Logs older than ${days} days will be deleted.`} This cannot be undone.</p>
      </Modal>
    </section>
  );
}
