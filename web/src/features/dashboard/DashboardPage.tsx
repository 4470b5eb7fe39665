import type { ApiLog } from '@skald/contracts/api';
import { Alert, Col, Empty, Row, Spin, Statistic, Typography } from 'antd';
import { resolveApiUrl } from '../../app/api.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useThemeMode } from '../../app/theme.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { formatTime } from '../logs/LogCard.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { DailyChart, SplitChart } from './DashboardCharts.tsx';
import { DASHBOARD_POLL_MS, formatTrend, shortMessage, trendTone, useDashboardStatsQuery } from './dashboardApi.ts';

export const RECENT_PHOTOS = 8;
const TREND_COLORS = { up: '#16a34a', down: '#dc2626', flat: '#6b7280' } as const;

function RecentPhotos({ photos }: { photos: ApiLog[] }) {
  if (photos.length === 0) return <Typography.Text type="secondary">No photo logs yet.</Typography.Text>;
  return (
    <Row gutter={[12, 12]}>
      {photos.slice(0, RECENT_PHOTOS).map((p) => (
        <Col xs={12} md={6} key={p.id}>
          <figure className="recent-photo" data-testid="recent-photo">
            <img src={resolveApiUrl(p.thumb_path ?? p.image_path ?? '')} alt={shortMessage(p.message)} loading="lazy" />
            <figcaption>
              <span>{shortMessage(p.message)}</span>
              <time dateTime={p.created_at}>{formatTime(p.created_at)}</time>
            </figcaption>
          </figure>
        </Col>
      ))}
    </Row>
  );
}

export default function DashboardPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const { mode } = useThemeMode();
  const { data: me } = useMeQuery(undefined);
  const { data: stats, isLoading, isError } = useDashboardStatsQuery(serverId ?? '', { skip: !serverId, pollingInterval: DASHBOARD_POLL_MS, skipPollingIfUnfocused: true });

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Dashboard</PageTitle>
        <Empty description="Select a server to view the panel." />
      </div>
    );
  }

  const heading = (
    <header className="page-header">
      <PageTitle>{serverName}</PageTitle>
      <Typography.Paragraph type="secondary">Welcome back{me ? `, ${me.user.username}` : ''}! Here is what your server logged recently.</Typography.Paragraph>
    </header>
  );
  if (isLoading) return <Spin />;
  if (isError || !stats) {
    return (
      <div className="page">
        {heading}
        <Alert type="error" title="Failed to load logs. Check your server or connection." showIcon />
      </div>
    );
  }
  if (stats.totals.all === 0) {
    return (
      <div className="page">
        {heading}
        <Empty description="This server has no logs yet." />
      </div>
    );
  }

  const tone = trendTone(stats.trend);
  const cards: { title: string; value: string | number; color?: string }[] = [
    { title: 'Total logs', value: stats.totals.all },
    { title: 'Photo logs', value: stats.totals.photo },
    { title: 'Text logs', value: stats.totals.text },
    { title: 'Average per day', value: stats.averagePerDay },
    { title: 'Trend vs previous week', value: formatTrend(stats.trend), color: TREND_COLORS[tone] },
  ];

  return (
    <div className="page dashboard">
      {heading}
      <div className="stat-grid">
        {cards.map((c) => (
          <Panel size="small" key={c.title} data-testid={`stat-${c.title}`} data-tone={c.color ? tone : undefined}>
            <Statistic title={c.title} value={c.value} styles={c.color ? { content: { color: c.color } } : undefined} />
          </Panel>
        ))}
      </div>
      <Panel title="Logs per day (last 7 days)" className="chart-card">
        <DailyChart days={stats.last7Days} mode={mode} />
      </Panel>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Panel title="Logs per type" className="chart-card">
            <SplitChart title="Logs per type" noun="types" rows={stats.perType} other={stats.perTypeOther} mode={mode} />
          </Panel>
        </Col>
        <Col xs={24} lg={8}>
          <Panel title="Logs per level" className="chart-card">
            <SplitChart title="Logs per level" noun="levels" rows={stats.perLevel} other={stats.perLevelOther} mode={mode} />
          </Panel>
        </Col>
        <Col xs={24} lg={8}>
          <Panel title="Logs per resource" className="chart-card">
            <SplitChart title="Logs per resource" noun="resources" rows={stats.perResource} other={stats.perResourceOther} mode={mode} />
          </Panel>
        </Col>
      </Row>
      <Panel title="Recent photo logs" className="chart-card">
        <RecentPhotos photos={stats.recentPhotos} />
      </Panel>
    </div>
  );
}
