import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useToast } from '../../app/toast.tsx';
import { SETTINGS_TEXT, useResetApiKeyMutation } from './settingsApi.ts';

type Step = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'show'; apiKey: string };

/**
 * API key Reset (docs/spec/part-2.txt section 4): a confirm step, then the new key shown once and closed only with 'I have
 * saved it'. The old key stops working at once. Only the owner may reset it (the server enforces it too).
 */
export function ApiKeySection({ serverId, isOwner }: { serverId: string; isOwner: boolean }) {
  const toast = useToast();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [reset, resetting] = useResetApiKeyMutation();

  const confirm = async () => {
    try {
      const { apiKey } = await reset(serverId).unwrap();
      setStep({ kind: 'show', apiKey });
    } catch {
      setStep({ kind: 'idle' });
      toast.error(SETTINGS_TEXT.resetFailed);
    }
  };

  return (
    <section aria-labelledby="api-key-heading" className="settings-section">
      <h2 id="api-key-heading" className="section-title">
        API key
      </h2>
      <p>Your game server sends this key with every log. Resetting it makes a new key and stops the current one at once.</p>
      {isOwner ? (
        <Button onClick={() => setStep({ kind: 'confirm' })}>
          Reset
        </Button>
      ) : (
        <p className="muted">Only the server owner can reset the API key.</p>
      )}
      <Modal
        open={step.kind === 'confirm'}
        title="Reset the API key?"
        okText="Reset"
       
        confirmLoading={resetting.isLoading}
        onOk={() => void confirm()}
        onCancel={() => setStep({ kind: 'idle' })}
        destroyOnHidden
      >
        <p>The current key stops working immediately: update your game server with the new key.</p>
      </Modal>
      {/* The key is shown exactly once; only the explicit button closes the dialog. */}
      <Modal
        open={step.kind === 'show'}
        title="Your new API key"
        closable={false}
        mask={{ closable: false }}
        keyboard={false}
        destroyOnHidden
        footer={
          <Button type="primary" onClick={() => setStep({ kind: 'idle' })}>
            I have saved it
          </Button>
        }
      >
        <Typography.Paragraph>This key is shown only once. Store it somewhere safe.</Typography.Paragraph>
        {step.kind === 'show' && (
          <Typography.Paragraph copyable={{ text: step.apiKey }} className="api-key" data-testid="api-key">
            <code>{step.apiKey}</code>
          </Typography.Paragraph>
        )}
      </Modal>
    </section>
  );
}
