import { AppstoreOutlined, ArrowLeftOutlined, TableOutlined } from '@ant-design/icons';
import type { ApiLog, LevelColors } from '@skald/contracts/api';
import { Alert, Button, Empty, Segmented, Space, Spin } from 'antd';
import { useCallback, useState, type ReactNode } from 'react';
import { errorText } from '../../app/errors.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { LevelContrastNote } from './LevelContrastNote.tsx';
import { LogCard } from './LogCard.tsx';
import { CONTEXT_TEXT, contextLines, CopyContextLink } from './LogContext.tsx';
import { LiveBar } from './LiveBar.tsx';
import { LogFiltersPanel } from './LogFiltersPanel.tsx';
import { LogHistogramPanel } from './LogHistogramPanel.tsx';
import { LogTable } from './LogTable.tsx';
import { SavedSearchMenu } from './SavedSearchMenu.tsx';
import { colorForLevel, LOGS_POLL_MS, totalPages, useLevelColorsQuery, useLevelTypesQuery, useLogContextQuery, useLogsPageQuery } from './logsApi.ts';
import { PageSizeSelect, Pager } from '../common/Pager.tsx';
import { useLogDisplay, type LogDisplay } from './useLogDisplay.ts';
import { FOREIGN_LINK_TEXT, useLogView } from './useLogView.ts';
import { useLiveTail } from './useLiveTail.ts';

export const LOG_PAGE_SIZES = [10, 25, 50, 100, 250] as const;
/** The table's page size when the address names none: enough lines to fill a desktop screen. */
export const TABLE_PAGE_SIZE = 50;

const DISPLAYS: { label: string; value: LogDisplay; icon: ReactNode }[] = [
  { label: 'Cards', value: 'cards', icon: <AppstoreOutlined /> },
  { label: 'Table', value: 'table', icon: <TableOutlined /> },
];

interface ListProps {
  logs: readonly ApiLog[];
  display: LogDisplay;
  colors: LevelColors | undefined;
  highlight: string;
  serverId: string;
  focusId?: string;
}

/** The logs as cards (the spec's list) or as the dense table. */
function LogList({ logs, display, colors, highlight, serverId, focusId }: ListProps) {
  if (display === 'table') return <LogTable logs={logs} colors={colors} highlight={highlight} serverId={serverId} focusId={focusId} />;
  return (
    <div className="log-list" aria-live="off">
      {logs.map((log) => (
        <LogCard key={log.id} log={log} color={colorForLevel(log.level, colors)} highlight={highlight} serverId={serverId} focused={log.id === focusId} />
      ))}
    </div>
  );
}

/** `/logs?log=`: the logs around one log, it marked and in view, with the way back to the list. */
function ContextView({ serverId, logId, display, colors, onBack }: { serverId: string; logId: string; display: LogDisplay; colors: LevelColors | undefined; onBack(): void }) {
  const { data, isLoading, error } = useLogContextQuery({ serverId, logId });
  const logs = data ? contextLines(data).map((line) => line.log) : [];
  return (
    <section aria-labelledby="context-heading" data-testid="context-view">
      <div className="context-view-head">
        <h2 id="context-heading" className="section-title">
          {CONTEXT_TEXT.title}
        </h2>
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
            Back to the list
          </Button>
          <CopyContextLink serverId={serverId} logId={logId} />
        </Space>
      </div>
      {isLoading ? (
        <Space>
          <Spin /> <span>{CONTEXT_TEXT.loading}</span>
        </Space>
      ) : error || !data ? (
        <Alert type="error" title={errorText(error, CONTEXT_TEXT.failed)} showIcon />
      ) : (
        <>
          <LogList logs={logs} display={display} colors={colors} highlight="" serverId={serverId} focusId={logId} />
          <LevelContrastNote levels={logs.map((log) => log.level)} colors={colors} />
        </>
      )}
    </section>
  );
}

export default function LogsPage() {
  const [display, setDisplay] = useLogDisplay();
  const paging = useLogView({ sizes: LOG_PAGE_SIZES, defaultSize: LOG_PAGE_SIZES[0], absentSize: display === 'table' ? TABLE_PAGE_SIZE : LOG_PAGE_SIZES[0], liveAllowed: true });
  const { serverId, serverName, view } = paging;
  const live = view.live && view.log === null;
  const [paused, setPaused] = useState(false);
  // Live: the tail replaces the polled page (same filters); off, the page polls as the spec says.
  // Live follows what arrives now: a histogram bar's past time range does not apply to it (the histogram
  // and its range tag come back with the list when Live is off).
  const tail = useLiveTail(serverId, { ...paging.settledFilters, timeFrom: '', timeTo: '' }, { enabled: live, paused });
  const { data, isLoading, isError } = useLogsPageQuery(
    { serverId: serverId ?? '', filters: paging.settledFilters, page: paging.page, pageSize: paging.pageSize },
    { skip: !serverId || live || view.log !== null, pollingInterval: LOGS_POLL_MS, skipPollingIfUnfocused: true },
  );
  const { data: colors } = useLevelColorsQuery(serverId ?? '', { skip: !serverId });
  const { data: levels } = useLevelTypesQuery(serverId ?? '', { skip: !serverId });
  const { filters, applyFilters } = paging;
  const onTimeRange = useCallback((timeFrom: string, timeTo: string) => applyFilters({ ...filters, timeFrom, timeTo }), [filters, applyFilters]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Logs</PageTitle>
        <Empty description="Select a server to view the panel." />
      </div>
    );
  }
  const pages = totalPages(data?.total ?? 0, paging.pageSize);
  const highlight = paging.settledFilters.search;

  return (
    <div className="page">
      <PageTitle>Logs – {serverName}</PageTitle>
      {paging.foreignLink && <Alert type="warning" title={FOREIGN_LINK_TEXT} showIcon className="notice" />}
      <div className="toolbar">
        <LogFiltersPanel value={paging.filters} onChange={paging.setFilters} levels={levels} />
        <SavedSearchMenu serverId={serverId} filters={paging.filters} onApply={paging.applyFilters} />
        <PageSizeSelect value={paging.pageSize} sizes={LOG_PAGE_SIZES} onChange={paging.setPageSize} />
      </div>
      <div className="log-view-bar">
        {view.log === null && (
          <LiveBar
            live={live}
            onLive={(next) => {
              paging.setLive(next);
              setPaused(false);
            }}
            paused={paused}
            onPaused={setPaused}
            tail={tail}
          />
        )}
        <Segmented<LogDisplay> options={DISPLAYS} value={display} onChange={setDisplay} aria-label="Show logs as" className="log-display-toggle" />
      </div>
      {view.log !== null ? (
        <ContextView serverId={serverId} logId={view.log} display={display} colors={colors} onBack={() => paging.setLog(null)} />
      ) : (
        <>
          {!live && <LogHistogramPanel serverId={serverId} filters={paging.settledFilters} logType="text" colors={colors} onTimeRange={onTimeRange} folded={display === 'table'} />}
          {live ? (
            tail.logs.length === 0 ? (
              <Empty description="No new logs yet." />
            ) : (
              <>
                <LogList logs={tail.logs} display={display} colors={colors} highlight={highlight} serverId={serverId} />
                <LevelContrastNote levels={tail.logs.map((log) => log.level)} colors={colors} />
              </>
            )
          ) : isLoading ? (
            <Spin />
          ) : isError ? (
            <Alert type="error" title="Failed to load logs. Check your server or connection." showIcon />
          ) : !data || data.logs.length === 0 ? (
            <Empty description="No logs found." />
          ) : (
            <>
              <LogList logs={data.logs} display={display} colors={colors} highlight={highlight} serverId={serverId} />
              <LevelContrastNote levels={data.logs.map((log) => log.level)} colors={colors} />
              <Pager page={paging.page} pages={pages} more={data.totalCapped} onPage={paging.setPage} />
            </>
          )}
        </>
      )}
    </div>
  );
}
