import { Form, Input } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { AuthCard } from './AuthCard.tsx';
import { AuthForm, type AuthAnswer } from './AuthForm.tsx';
import { useForgotPasswordMutation } from './authApi.ts';

export default function ForgotPasswordPage() {
  const [forgot, state] = useForgotPasswordMutation();
  const [result, setResult] = useState<AuthAnswer | null>(null);

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
    <AuthCard title="Forgot password" links={<Link to="/login">Back to login</Link>}>
      <AuthForm<{ email: string }> onSubmit={(v) => void submit(v)} submitLabel="Send reset link" busy={state.isLoading} answer={result} noValidate>
        <Form.Item label="Email" name="email" rules={[requiredRule('email')]}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
      </AuthForm>
    </AuthCard>
  );
}
