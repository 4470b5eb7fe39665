import type { TwoFactorSetupAnswer } from '@skald/contracts/api';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { errorText } from '../../app/errors.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { apiSlice } from '../../app/api.ts';
import { useToast } from '../../app/toast.tsx';
import { useDisableTwoFactorMutation, useSetupTwoFactorMutation, useVerifyTwoFactorMutation } from './userApi.ts';

export function sanitizeCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}

// Two-factor states (docs/spec/part-2.txt section 4): disabled → setup (QR shown) → verify → enabled → disable.
export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [setup, setupState] = useSetupTwoFactorMutation();
  const [verify, verifyState] = useVerifyTwoFactorMutation();
  const [disable, disableState] = useDisableTwoFactorMutation();
  const [secret, setSecret] = useState<TwoFactorSetupAnswer | null>(null);
  const [code, setCode] = useState('');
  const [disableOpen, setDisableOpen] = useState(false);
  const [disableCode, setDisableCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const startSetup = async () => {
    setError(null);
    try {
      setSecret(await setup(undefined).unwrap());
      setCode('');
    } catch (err) {
      toast.error(errorText(err, 'Failed to start 2FA setup.'));
    }
  };

  const confirmSetup = async () => {
    if (code.length !== 6) {
      setError('Please enter the complete 6-digit code');
      return;
    }
    setError(null);
    try {
      // The server rotates the session token on 2FA changes; the endpoint stored the new one, so the
      // refetched user goes out with it.
      await verify({ token: code }).unwrap();
      dispatch(apiSlice.util.invalidateTags(['Me']));
      setSecret(null);
      setCode('');
      toast.success('2FA successfully activated');
    } catch (err) {
      const text = errorText(err, 'Verification failed');
      setError(text);
      toast.error(text);
    }
  };

  const confirmDisable = async () => {
    if (disableCode.trim() === '') {
      setError('Please enter your 2FA code.');
      return;
    }
    if (!window.confirm('Are you sure you want to disable 2FA?')) return;
    setError(null);
    try {
      await disable({ token: disableCode }).unwrap();
      dispatch(apiSlice.util.invalidateTags(['Me']));
      setDisableOpen(false);
      setDisableCode('');
      toast.success('2FA is disabled');
    } catch (err) {
      const text = errorText(err, 'Disabling failed');
      setError(text);
      toast.error(text);
    }
  };

  return (
    <section aria-labelledby="twofa-title">
      <Typography.Title level={2} id="twofa-title" className="section-title">
        Two-Factor Authentication
      </Typography.Title>
      {enabled ? (
        <>
          <Typography.Paragraph>Two-factor authentication is enabled for your account.</Typography.Paragraph>
          <Button danger onClick={() => { setError(null); setDisableOpen(true); }}>
            Disable 2FA
          </Button>
          <Modal
            open={disableOpen}
            title="Disable 2FA"
            onCancel={() => setDisableOpen(false)}
            onOk={() => void confirmDisable()}
            okText="Disable"
            okButtonProps={{ danger: true, loading: disableState.isLoading }}
            destroyOnHidden
          >
            <label className="field-label" htmlFor="disable-2fa-code">
              2FA code
            </label>
            <Input id="disable-2fa-code" value={disableCode} maxLength={6} placeholder="Enter 6-digit code" inputMode="numeric" onChange={(e) => setDisableCode(sanitizeCode(e.target.value))} autoFocus />
            {error && <Alert type="error" title={error} className="form-alert" showIcon />}
          </Modal>
        </>
      ) : secret ? (
        <Space orientation="vertical" className="full-width">
          <Typography.Paragraph>Scan this QR code with your authenticator app, or enter the secret manually, then type the 6-digit code it shows.</Typography.Paragraph>
          <img src={secret.qr} alt="2FA QR code" width={180} height={180} className="qr" />
          <Typography.Text>
            Secret:{' '}
            <Typography.Text code copyable data-testid="twofa-secret">
              {secret.secret}
            </Typography.Text>
          </Typography.Text>
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void confirmSetup();
            }}
          >
            <Input aria-label="2FA code" value={code} maxLength={6} placeholder="Enter 6-digit code" inputMode="numeric" onChange={(e) => setCode(sanitizeCode(e.target.value))} />
            <Button type="primary" htmlType="submit" loading={verifyState.isLoading}>
              Verify and enable
            </Button>
          </form>
          {error && <Alert type="error" title={error} showIcon />}
        </Space>
      ) : (
        <>
          <Typography.Paragraph>Protect your account with a code from an authenticator app.</Typography.Paragraph>
          <Button type="primary" onClick={() => void startSetup()} loading={setupState.isLoading}>
            Enable 2FA
          </Button>
        </>
      )}
    </section>
  );
}
