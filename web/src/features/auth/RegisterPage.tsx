import { Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messageText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { useToast } from '../../app/toast.tsx';
import { AuthCard } from './AuthCard.tsx';
import { AuthForm } from './AuthForm.tsx';
import { useRegisterMutation } from './authApi.ts';

interface RegisterForm {
  email: string;
  username: string;
  password: string;
}

export const REGISTER_FALLBACK_ERROR = 'Registration failed. Please try again.';

export default function RegisterPage() {
  const [register, state] = useRegisterMutation();
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const toast = useToast();

  const submit = async (values: RegisterForm) => {
    setError(null);
    try {
      await register(values).unwrap();
      toast.success('Registered! You can log in now.');
      navigate('/');
    } catch (err) {
      setError(messageText(err, REGISTER_FALLBACK_ERROR));
    }
  };

  return (
    <AuthCard title="Register" links={<Link to="/login">Already have an account? Log in</Link>}>
      {/* noValidate: the e-mail field keeps its type (docs/spec/part-1.txt section 5) but the sentences shown are Skald's, not the browser's. */}
      <AuthForm<RegisterForm> onSubmit={(v) => void submit(v)} submitLabel="Register" busy={state.isLoading} answer={error} noValidate>
        <Form.Item label="Email" name="email" rules={[requiredRule('email')]}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Form.Item label="Username" name="username" rules={[requiredRule('username')]}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[requiredRule('password')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </AuthForm>
    </AuthCard>
  );
}
