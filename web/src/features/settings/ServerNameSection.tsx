import { Alert, Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { SETTINGS_TEXT, useRenameServerMutation } from './settingsApi.ts';

/** Server Name: a Change Name dialog (docs/spec/part-2.txt section 2); the server list refreshes after (settingsApi invalidates Me). */
export function ServerNameSection({ serverId, name }: { serverId: string; name: string }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [newName, setNewName] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [rename, renaming] = useRenameServerMutation();

  const close = () => {
    setOpen(false);
    setError(null);
  };

  const submit = async () => {
    const trimmed = newName.trim();
    if (trimmed === '') {
      setError('Give the server a name!');
      return;
    }
    try {
      const answer = await rename({ serverId, newName: trimmed }).unwrap();
      close();
      toast.success(answer.message);
    } catch (err) {
      setError(errorText(err, SETTINGS_TEXT.renameFailed));
    }
  };

  return (
    <section aria-labelledby="name-heading" className="settings-section">
      <h2 id="name-heading" className="section-title">
        Server Name
      </h2>
      <p>
        Current name: <strong>{name}</strong>
      </p>
      <Button
        onClick={() => {
          setNewName(name);
          setOpen(true);
        }}
      >
        Change Name
      </Button>
      <Modal open={open} title="Change Name" okText="Save" confirmLoading={renaming.isLoading} onOk={() => void submit()} onCancel={close} destroyOnHidden>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label className="field-label" htmlFor="new-server-name">
            New name
          </label>
          <Input id="new-server-name" value={newName} maxLength={100} onChange={(e) => setNewName(e.target.value)} autoFocus />
          {error && <Alert type="error" title={error} className="form-alert" showIcon />}
        </form>
      </Modal>
    </section>
  );
}
