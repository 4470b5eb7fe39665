import type { MessageAnswer } from '@skald/contracts/api';
import { Alert, Button, Divider, Form, Input, Spin, Typography } from 'antd';
import { errorText } from '../../app/errors.ts';
import { requiredRule } from '../../app/formRules.ts';
import { useToast } from '../../app/toast.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { useChangeEmailMutation, useChangePasswordMutation, useChangeUsernameMutation } from './userApi.ts';

export default function UserSettingsPage() {
  const { data: me, isLoading, isError } = useMeQuery(undefined);
  const toast = useToast();
  const [changeUsername, usernameState] = useChangeUsernameMutation();
  const [changeEmail, emailState] = useChangeEmailMutation();
  const [changePassword, passwordState] = useChangePasswordMutation();
  const [passwordForm] = Form.useForm<{ currentPassword: string; newPassword: string }>();

  // Every account form reports the server's message.
  const run = async (action: () => Promise<MessageAnswer>) => {
    try {
      const answer = await action();
      toast.success(answer.message);
      return true;
    } catch (err) {
      toast.error(errorText(err, 'Error while updating'));
      return false;
    }
  };

  if (isLoading) return <Spin />;
  if (isError || !me) return <Alert type="error" title="Failed to gather information." showIcon />;

  return (
    <Panel className="narrow-card">
      <PageTitle>User settings</PageTitle>
      <Typography.Title level={2} className="section-title">Change Username</Typography.Title>
      <Form layout="vertical" initialValues={{ username: me.user.username }} onFinish={(v: { username: string }) => void run(() => changeUsername(v).unwrap())}>
        <Form.Item label="Username" name="username" rules={[requiredRule('username')]}>
          <Input autoComplete="username" />
        </Form.Item>
        <Button htmlType="submit" loading={usernameState.isLoading}>
          Change Username
        </Button>
      </Form>
      <Divider />
      <Typography.Title level={2} className="section-title">Change E-mail</Typography.Title>
      <Form layout="vertical" initialValues={{ email: me.user.email }} onFinish={(v: { email: string }) => void run(() => changeEmail(v).unwrap())} noValidate>
        <Form.Item label="E-mail" name="email" rules={[requiredRule('email')]}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button htmlType="submit" loading={emailState.isLoading}>
          Change E-mail
        </Button>
      </Form>
      <Divider />
      <Typography.Title level={2} className="section-title">Change Password</Typography.Title>
      <Form
        form={passwordForm}
        layout="vertical"
        // A password change revokes every older token (other devices too); the endpoint stores the new
        // one it answers (userApi: issuesToken), so this tab stays signed in.
        onFinish={(v: { currentPassword: string; newPassword: string }) =>
          void run(() => changePassword(v).unwrap()).then((ok) => ok && passwordForm.resetFields())
        }
      >
        <Form.Item label="Current password" name="currentPassword" rules={[requiredRule('currentPassword')]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="New password" name="newPassword" rules={[requiredRule('newPassword')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button htmlType="submit" loading={passwordState.isLoading}>
          Change Password
        </Button>
      </Form>
      <Divider />
      <TwoFactorSection enabled={me.user.two_factor_enabled} />
    </Panel>
  );
}
