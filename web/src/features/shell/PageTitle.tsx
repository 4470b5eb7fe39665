import type { ReactNode } from 'react';

/** The view's one level-one heading, sized as a page title (styles.css .page-title). */
export function PageTitle({ children, className }: { children: ReactNode; className?: string }) {
  return <h1 className={className ? `page-title ${className}` : 'page-title'}>{children}</h1>;
}
