import { Alert, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { AuthCard } from './AuthCard.tsx';
import { AuthForm } from './AuthForm.tsx';
import { useLoginMutation, useTwoFactorLoginMutation } from './authApi.ts';
import { completeSignIn } from './session.ts';
import { emptyCode, isCompleteCode, TwoFactorCodeInput } from './TwoFactorCodeInput.tsx';

interface Credentials {
  username: string;
  password: string;
}

export default function LoginPage() {
  const token = useAppSelector((s) => s.session.token);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [login, loginState] = useLoginMutation();
  const [verify, verifyState] = useTwoFactorLoginMutation();
  const [preToken, setPreToken] = useState<string | null>(null);
  const [code, setCode] = useState<string[]>(emptyCode);
  const [error, setError] = useState<string | null>(null);

  // A stored token means the user is already signed in (docs/spec/part-1.txt section 2).
  if (token && !loginState.isLoading && !verifyState.isLoading) return <Navigate to="/dashboard" replace />;

  const submitCredentials = async (values: Credentials) => {
    setError(null);
    try {
      const answer = await login(values).unwrap();
      if ('twofa_required' in answer) {
        setPreToken(answer.pre_token);
        setCode(emptyCode());
        return;
      }
      completeSignIn(dispatch, answer);
      navigate('/dashboard');
    } catch (err) {
      setError(errorText(err, 'Login failed'));
    }
  };

  const submitCode = async () => {
    if (!isCompleteCode(code)) {
      setError('Please enter the complete 6-digit code');
      return;
    }
    setError(null);
    try {
      const answer = await verify({ token: preToken ?? '', code: code.join('') }).unwrap();
      completeSignIn(dispatch, answer);
      navigate('/dashboard');
    } catch (err) {
      setError(errorText(err, 'Invalid 2FA code'));
    }
  };

  // 'Back to login' clears the pre-token, the code and the error (docs/spec/part-1.txt section 4).
  const backToLogin = () => {
    setPreToken(null);
    setCode(emptyCode());
    setError(null);
  };

  if (preToken !== null) {
    return (
      <AuthCard title="Enter 2FA code">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submitCode();
          }}
        >
          <TwoFactorCodeInput value={code} onChange={setCode} autoFocus disabled={verifyState.isLoading} />
          {error && <Alert type="error" title={error} className="form-alert" showIcon />}
          <Space orientation="vertical" className="full-width">
            <Button type="primary" htmlType="submit" block loading={verifyState.isLoading}>
              Verify 2FA
            </Button>
            <Button block onClick={backToLogin}>
              Back to login
            </Button>
          </Space>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Login" links={<><Link to="/forgot-password">Forgot password?</Link><Link to="/register">Create an account</Link></>}>
      <AuthForm<Credentials> onSubmit={(v) => void submitCredentials(v)} submitLabel="Login" busy={loginState.isLoading} answer={error}>
        <Form.Item label="Username" name="username" rules={[requiredRule('username')]}>
          <Input autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[requiredRule('password')]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
      </AuthForm>
    </AuthCard>
  );
}
