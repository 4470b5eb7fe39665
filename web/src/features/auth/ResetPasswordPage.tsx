import { Alert, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { AuthCard } from './AuthCard.tsx';
import { AuthForm } from './AuthForm.tsx';
import { useResetPasswordMutation } from './authApi.ts';

export const RESET_REDIRECT_MS = 3000;

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [reset, state] = useResetPasswordMutation();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();

  // After a successful reset the user goes to /login after 3 seconds (docs/spec/part-1.txt sections 2, 9).
  useEffect(() => {
    if (!done) return undefined;
    const timer = window.setTimeout(() => navigate('/login'), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const submit = async ({ password }: { password: string }) => {
    setError(null);
    try {
      await reset({ token, password }).unwrap();
      setDone(true);
    } catch (err) {
      setError(errorText(err, 'Reset failed.'));
    }
  };

  return (
    <AuthCard title="Set New Password" links={<Link to="/login">Back to login</Link>}>
      {done ? (
        <Alert type="success" title="Password changed! Redirecting to login..." showIcon />
      ) : (
        <AuthForm<{ password: string }> onSubmit={(v) => void submit(v)} submitLabel="Change Password" busy={state.isLoading} answer={error}>
          <Form.Item label="New password" name="password" rules={[requiredRule('password')]}>
            <Input.Password autoComplete="new-password" autoFocus />
          </Form.Item>
        </AuthForm>
      )}
    </AuthCard>
  );
}
