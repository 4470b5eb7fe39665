import { Button, Form, Input } from 'antd';
import { requiredRule } from '../../app/formRules.ts';
import { useToast } from '../../app/toast.tsx';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';

interface ContactForm {
  name: string;
  email: string;
  message: string;
}

// Submitting only shows the toast; no call to the server is made (docs/spec/part-1.txt section 2).
export default function ContactPage() {
  const [form] = Form.useForm<ContactForm>();
  const toast = useToast();
  return (
    <Panel className="narrow-card">
      <PageTitle>Contact support</PageTitle>
      <Form
        form={form}
        layout="vertical"
        onFinish={() => {
          toast.success('Message sent!');
          form.resetFields();
        }}
      >
        <Form.Item label="Name" name="name" rules={[{ required: true, message: 'Please enter your name' }]}>
          <Input />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={[requiredRule('email')]}>
          <Input type="email" />
        </Form.Item>
        <Form.Item label="Message" name="message" rules={[{ required: true, message: 'Please enter a message' }]}>
          <Input.TextArea rows={5} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          Send
        </Button>
      </Form>
    </Panel>
  );
}
