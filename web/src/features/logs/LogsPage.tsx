import { Alert, Empty, Spin } from 'antd';
import { useCallback, useState } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { LevelContrastNote } from './LevelContrastNote.tsx';
import { LogCard } from './LogCard.tsx';
import { LiveBar } from './LiveBar.tsx';
import { LogFiltersPanel } from './LogFiltersPanel.tsx';
import { LogHistogramPanel } from './LogHistogramPanel.tsx';
import { SavedSearchMenu } from './SavedSearchMenu.tsx';
import { colorForLevel, LOGS_POLL_MS, totalPages, useLevelColorsQuery, useLevelTypesQuery, useLogsPageQuery } from './logsApi.ts';
import { PageSizeSelect, Pager } from '../common/Pager.tsx';
import { usePagedFilters } from './usePagedFilters.ts';
import { useLiveTail } from './useLiveTail.ts';

export const LOG_PAGE_SIZES = [10, 25, 50, 100, 250] as const;

export default function LogsPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const paging = usePagedFilters(LOG_PAGE_SIZES[0]);
  const [live, setLive] = useState(false);
  const [paused, setPaused] = useState(false);
  // Live: the tail replaces the polled page (same filters); off, the page polls as the spec says.
  // Live follows what arrives now: a histogram bar's past time range does not apply to it (the histogram
  // and its range tag come back with the list when Live is off).
  const tail = useLiveTail(serverId, { ...paging.settledFilters, timeFrom: '', timeTo: '' }, { enabled: live, paused });
  const { data, isLoading, isError } = useLogsPageQuery(
    { serverId: serverId ?? '', filters: paging.settledFilters, page: paging.page, pageSize: paging.pageSize },
    { skip: !serverId || live, pollingInterval: LOGS_POLL_MS, skipPollingIfUnfocused: true },
  );
  const { data: colors } = useLevelColorsQuery(serverId ?? '', { skip: !serverId });
  const { data: levels } = useLevelTypesQuery(serverId ?? '', { skip: !serverId });
  const { filters, setFilters } = paging;
  const onTimeRange = useCallback((timeFrom: string, timeTo: string) => setFilters({ ...filters, timeFrom, timeTo }), [filters, setFilters]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Logs</PageTitle>
        <Empty description="Select a server to view the panel." />
      </div>
    );
  }
  const pages = totalPages(data?.total ?? 0, paging.pageSize);

  return (
    <div className="page">
      <PageTitle>Logs – {serverName}</PageTitle>
      <div className="toolbar">
        <LogFiltersPanel value={paging.filters} onChange={paging.setFilters} levels={levels} />
        <SavedSearchMenu serverId={serverId} filters={paging.filters} onApply={paging.setFilters} />
        <PageSizeSelect value={paging.pageSize} sizes={LOG_PAGE_SIZES} onChange={paging.setPageSize} />
      </div>
      <LiveBar
        live={live}
        onLive={(next) => {
          setLive(next);
          setPaused(false);
        }}
        paused={paused}
        onPaused={setPaused}
        tail={tail}
      />
      {!live && <LogHistogramPanel serverId={serverId} filters={paging.settledFilters} logType="text" colors={colors} onTimeRange={onTimeRange} />}
      {live ? (
        tail.logs.length === 0 ? (
          <Empty description="No new logs yet." />
        ) : (
          <>
            <div className="log-list" aria-live="off">
              {tail.logs.map((log) => (
                <LogCard key={log.id} log={log} color={colorForLevel(log.level, colors)} highlight={paging.settledFilters.search} />
              ))}
            </div>
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
          <div className="log-list">
            {data.logs.map((log) => (
              <LogCard key={log.id} log={log} color={colorForLevel(log.level, colors)} highlight={paging.settledFilters.search} />
            ))}
          </div>
          <LevelContrastNote levels={data.logs.map((log) => log.level)} colors={colors} />
          <Pager page={paging.page} pages={pages} more={data.totalCapped} onPage={paging.setPage} />
        </>
      )}
    </div>
  );
}
