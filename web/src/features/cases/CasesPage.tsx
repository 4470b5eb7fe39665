import { Alert, Empty, Space, Spin, Tag } from 'antd';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { formatTime } from '../logs/LogCard.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { CASE_TEXT, casesUsedLine, STATUS_LABEL } from './caseText.ts';
import { useCasesQuery } from './casesApi.ts';

/** /cases (docs/CASES.md): the server's evidence cases, newest first, each opening its case page. */
export default function CasesPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const list = useCasesQuery(serverId ?? '', { skip: !serverId, refetchOnMountOrArgChange: true });
  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>{CASE_TEXT.screen}</PageTitle>
        <Empty description={CASE_TEXT.noServer} />
      </div>
    );
  }
  return (
    <div className="page cases-page">
      <PageTitle>{CASE_TEXT.screen}</PageTitle>
      {serverName && <p className="muted">{serverName}</p>}
      {list.isError ? (
        <Alert type="error" title={CASE_TEXT.loadFailed} showIcon />
      ) : !list.data ? (
        <Space>
          <Spin /> <span>{CASE_TEXT.loading}</span>
        </Space>
      ) : (
        <>
          <p className="muted count-line">{casesUsedLine(list.data.cases.length, list.data.maxCases)}</p>
          {list.data.cases.length === 0 ? (
            <Empty description={CASE_TEXT.empty} />
          ) : (
            <ul className="case-list" aria-label={CASE_TEXT.screen}>
              {list.data.cases.map((c) => (
                <li key={c.id} className="case-row" data-testid="case-row">
                  <Link to={`/cases/${encodeURIComponent(c.id)}`} className="case-row-title">
                    {c.title}
                  </Link>
                  <Tag color={c.status === 'open' ? 'blue' : 'default'}>{STATUS_LABEL[c.status]}</Tag>
                  <span className="muted case-row-meta">
                    {c.itemCount} {c.itemCount === 1 ? 'log' : 'logs'} · opened <time dateTime={c.createdAt}>{formatTime(c.createdAt)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
