import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { AuthCard } from './AuthCard.tsx';
import { useForgotPasswordMutation } from './authApi.ts';

export default function ForgotPasswordPage() {
  const [forgot, state] = useForgotPasswordMutation();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const submit = async ({ email }: { email: string }) => {
    setResult(null);
    try {
      const answer = await forgot({ email }).unwrap();
      setResult({ kind: 'success', text: answer.message });
    } catch (err) {
      setResult({ kind: 'error', text: errorText(err, 'Something went wrong.') });
    }
  };

  return (
    <AuthCard title="Forgot password">
      <Form<{ email: string }> layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} noValidate>
        <Form.Item label="Email" name="email" rules={[requiredRule('email')]}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        {result && <Alert type={result.kind} title={result.text} className="form-alert" showIcon />}
        <Button type="primary" htmlType="submit" block loading={state.isLoading}>
          Send reset link
        </Button>
      </Form>
      <div className="auth-links">
        <Link to="/login">Back to login</Link>
      </div>
    </AuthCard>
  );
}
