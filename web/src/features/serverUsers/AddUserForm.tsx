import { Alert, Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { errorText } from '../../app/errors.ts';
import { EMAIL_FORMAT_RULE, requiredRule } from '../../app/formRules.ts';
import { useToast } from '../../app/toast.tsx';
import { ASSIGNABLE_ROLES, type AssignableRole, SERVER_USERS_TEXT, useAddServerUserMutation } from './serverUsersApi.ts';

interface AddUserValues {
  email: string;
  role: AssignableRole;
}

/**
 * The Add user form (docs/spec/part-2.txt sections 2, 5): e-mail of an existing account and the role admin or user (default
 * user); its button is disabled at the tier's user limit. The server's `error` shows under the form.
 */
export function AddUserForm({ serverId, atLimit }: { serverId: string; atLimit: boolean }) {
  const toast = useToast();
  const [form] = Form.useForm<AddUserValues>();
  const [error, setError] = useState<string | null>(null);
  const [add, adding] = useAddServerUserMutation();

  const submit = async ({ email, role }: AddUserValues) => {
    setError(null);
    try {
      await add({ serverId, email: email.trim(), role }).unwrap();
      toast.success(SERVER_USERS_TEXT.added);
      form.resetFields();
    } catch (err) {
      setError(errorText(err, SERVER_USERS_TEXT.addFailedFallback));
      toast.error(SERVER_USERS_TEXT.addFailedToast);
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={{ email: '', role: 'user' }} onFinish={(values) => void submit(values)} className="add-user-form" aria-label="Add user" noValidate>
      <Form.Item label="E-mail" name="email" rules={[requiredRule('email'), EMAIL_FORMAT_RULE]}>
        <Input type="email" autoComplete="off" />
      </Form.Item>
      <Form.Item label="Role" name="role" rules={[requiredRule('role')]}>
        <Select options={ASSIGNABLE_ROLES.map((role) => ({ value: role, label: role }))} aria-label="Role" />
      </Form.Item>
      {error && <Alert type="error" title={error} className="form-alert" showIcon />}
      <Button type="primary" htmlType="submit" disabled={atLimit} loading={adding.isLoading}>
        Add user
      </Button>
      {atLimit && <p className="muted">The server has reached its tier's user limit.</p>}
    </Form>
  );
}
