import { Alert, Button, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText, statusOf } from '../../app/errors.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { serverSelected } from '../../app/sessionSlice.ts';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { useCreateServerMutation } from './serversApi.ts';

export function createServerError(err: unknown): string {
  if (statusOf(err) === 409) return 'That server name is already taken.';
  return errorText(err, 'Failed to create server.');
}

export default function CreateServerPage() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState<string | null>(null);
  const [create, state] = useCreateServerMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const submit = async () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setError('Give the server a name!');
      return;
    }
    setError(null);
    try {
      const server = await create({ name: trimmed }).unwrap();
      dispatch(serverSelected({ id: server.id, name: server.name }));
      setApiKey(server.api_key);
    } catch (err) {
      setError(createServerError(err));
    }
  };

  return (
    <Panel className="narrow-card">
      <PageTitle>Create new server</PageTitle>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="field-label" htmlFor="server-name">
          Server name
        </label>
        <Input id="server-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoFocus />
        {error && <Alert type="error" title={error} className="form-alert" showIcon />}
        <Button type="primary" htmlType="submit" loading={state.isLoading} className="form-submit">
          Create server
        </Button>
      </form>
      {/* The key is shown exactly once; only the explicit button leaves the dialog. */}
      <Modal
        open={apiKey !== null}
        title="Save your API key"
        closable={false}
        mask={{ closable: false }}
        keyboard={false}
        destroyOnHidden
        footer={
          <Button type="primary" onClick={() => navigate('/dashboard')}>
            I have saved it
          </Button>
        }
      >
        <Typography.Paragraph>This key is shown only once. Store it somewhere safe; your game server sends it with every log.</Typography.Paragraph>
        <Typography.Paragraph copyable={{ text: apiKey ?? '' }} className="api-key" data-testid="api-key">
          <code>{apiKey}</code>
        </Typography.Paragraph>
      </Modal>
    </Panel>
  );
}
