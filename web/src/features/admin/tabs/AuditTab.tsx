import { ADMIN_AUDIT_PAGE_SIZE } from '@skald/contracts/api';
import { Alert, Spin } from 'antd';
import { useState } from 'react';
import { Pager } from '../../common/Pager.tsx';
import { useAdminServerAuditQuery } from '../adminApi.ts';
import { ADMIN_TEXT, detailsText, formatDateTime, pageCount } from '../adminText.ts';

/** Audit Logs tab (docs/spec/part-2.txt sections 2, 9): 50 per page from the server, Prev/Next and 'Page x / y'. */
export function AuditTab({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useAdminServerAuditQuery({ id, page, limit: ADMIN_AUDIT_PAGE_SIZE });
  if (isLoading) return <Spin />;
  if (isError || !data) return <Alert type="error" title={ADMIN_TEXT.auditError} showIcon />;
  if (data.pagination.total === 0) return <p className="muted">{ADMIN_TEXT.auditEmpty}</p>;
  const pages = pageCount(data.pagination.total, data.pagination.limit);
  return (
    <div>
      <ul className="admin-plain-list">
        {data.logs.map((entry) => (
          <li key={entry.id} data-testid="admin-audit-entry">
            <strong>{entry.action}</strong> <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time> <span className="muted">{entry.user_id}</span>
            <div className="audit-details">{detailsText(entry.details)}</div>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} previousLabel="Prev" separator="/" onPage={setPage} />
    </div>
  );
}
