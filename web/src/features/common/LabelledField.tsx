import { Col, type ColProps } from 'antd';
import type { ReactNode } from 'react';

interface Props extends Pick<ColProps, 'xs' | 'md' | 'lg'> {
  /** The id of the control, which the label names. */
  id: string;
  label: string;
  /** The control. */
  children: ReactNode;
}

/** One field of a filter form's grid: a column with the field's label above its control. */
export function LabelledField({ id, label, children, ...span }: Props) {
  return (
    <Col {...span}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </Col>
  );
}
