import type { AdminStats } from '@skald/contracts/api';
import { Alert, Col, Row, Space, Spin, Statistic } from 'antd';
import { useThemeMode } from '../../app/theme.tsx';
import { Panel } from '../common/Panel.tsx';
import { PageTitle } from '../shell/PageTitle.tsx';
import { DayBars } from './AdminCharts.tsx';
import { useAdminStatsQuery } from './adminApi.ts';
import { ADMIN_POLL_MS, ADMIN_TEXT } from './adminText.ts';

function TopList({ title, rows }: { title: string; rows: AdminStats['topServers'] }) {
  return (
    <Panel title={title}>
      {rows.length === 0 ? (
        <span className="muted">-</span>
      ) : (
        <ol className="admin-top-list">
          {rows.map((row, i) => (
            <li key={row.id} data-testid="top-row">
              <span className="admin-rank">{i + 1}.</span> <span>{row.name}</span> <strong>{row.count.toLocaleString()}</strong>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

/** Staff dashboard (docs/spec/part-2.txt section 2 Admin Dashboard): cards, 7-day charts and the top lists; refreshed every 10 s. */
export default function AdminDashboardPage() {
  const { mode } = useThemeMode();
  const { data: stats, isLoading, isError } = useAdminStatsQuery(undefined, { pollingInterval: ADMIN_POLL_MS.stats, skipPollingIfUnfocused: true });
  const heading = <PageTitle>Admin Dashboard</PageTitle>;
  if (isLoading) {
    return (
      <div className="page">
        {heading}
        <Space role="status">
          <Spin /> <span>{ADMIN_TEXT.statsLoading}</span>
        </Space>
      </div>
    );
  }
  if (isError || !stats) {
    return (
      <div className="page">
        {heading}
        <Alert type="error" title={ADMIN_TEXT.statsError} showIcon />
      </div>
    );
  }
  const cards: { title: string; value: string }[] = [
    { title: 'Total Logs', value: stats.totalLogs.toLocaleString() },
    { title: 'Total Photo Logs', value: stats.totalPhotoLogs.toLocaleString() },
    { title: 'Total Servers', value: stats.totalServers.toLocaleString() },
    { title: 'Total Users', value: stats.totalUsers.toLocaleString() },
    { title: '2FA Adoption', value: `${stats.twoFAAdoption.usersWith2FA} / ${stats.twoFAAdoption.totalUsers}` },
    { title: 'Avg Logs per Server', value: stats.avgLogsPerServer.toFixed(1) },
    { title: 'Servers without Logs', value: stats.serversWithoutLogs.toLocaleString() },
  ];
  return (
    <div className="page">
      {heading}
      <div className="stat-grid">
        {cards.map((c) => (
          <Panel size="small" key={c.title} data-testid={`admin-stat-${c.title}`}>
            <Statistic title={c.title} value={c.value} />
          </Panel>
        ))}
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Panel title="Logs per day (last 7 days)" className="chart-card">
            <DayBars label="Logs per day, last 7 days" mode={mode} series={[{ name: 'Logs', color: '#3b82f6', points: stats.logsPerDay }]} />
          </Panel>
        </Col>
        <Col xs={24} lg={8}>
          <Panel title="Photo logs per day (last 7 days)" className="chart-card">
            <DayBars label="Photo logs per day, last 7 days" mode={mode} series={[{ name: 'Photo logs', color: '#f59e0b', points: stats.photoLogsPerDay }]} />
          </Panel>
        </Col>
        <Col xs={24} lg={8}>
          <Panel title="New users and servers per day (last 7 days)" className="chart-card">
            <DayBars
              label="New users and new servers per day, last 7 days"
              mode={mode}
              series={[
                { name: 'New users', color: '#10b981', points: stats.newUsers },
                { name: 'New servers', color: '#8b5cf6', points: stats.newServers },
              ]}
            />
          </Panel>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <TopList title="Top 5 servers by logs" rows={stats.topServers} />
        </Col>
        <Col xs={24} md={12}>
          <TopList title="Top 5 servers by photo logs" rows={stats.topPhotoServers} />
        </Col>
      </Row>
    </div>
  );
}
