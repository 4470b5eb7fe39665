import type { HTMLAttributes, ReactNode } from 'react';

interface PanelProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  /** The head line (antd Card's `title`): a plain caption, not a heading. */
  title?: ReactNode;
  /** 'small' is antd Card's small size: 38 px head, 12 px padding (the dashboard's stat cards). */
  size?: 'default' | 'small';
}

/**
 * A bordered card drawn by styles.css (.panel) to look like antd's Card, without its code: antd's Card
 * imports Tabs, and Tabs brings Menu, Dropdown and their popups (about 20 KiB brotli) into every screen
 * that shows a card, the landing page first (docs/DECISIONS.md "First-load budgets").
 */
export function Panel({ title, size = 'default', className, children, ...rest }: PanelProps) {
  const classes = ['panel', size === 'small' && 'panel-small', className].filter(Boolean).join(' ');
  return (
    <div className={classes} {...rest}>
      {title !== undefined && (
        <div className="panel-head">
          <div className="panel-title">{title}</div>
        </div>
      )}
      <div className="panel-body">{children}</div>
    </div>
  );
}
