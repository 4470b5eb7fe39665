import type { ApiLog, LevelColor } from '@skald/contracts/api';
import { Alert, Col, Empty, Row, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { resolveApiUrl } from '../../app/api.ts';
import { formatTime } from '../logs/LogCard.tsx';
import { AddToCaseButton } from '../cases/AddToCaseButton.tsx';
import { ContextButton } from '../logs/LogContext.tsx';
import { LevelContrastNote } from '../logs/LevelContrastNote.tsx';
import { LogFiltersPanel } from '../logs/LogFiltersPanel.tsx';
import { LogHistogramPanel } from '../logs/LogHistogramPanel.tsx';
import { Highlight } from '../common/Highlight.tsx';
import { LogMetadata } from '../logs/LogMetadata.tsx';
import { colorForLevel, LOGS_POLL_MS, totalPages, useLevelColorsQuery, useLevelTypesQuery, usePhotoLogsPageQuery } from '../logs/logsApi.ts';
import { PageSizeSelect, Pager } from '../common/Pager.tsx';
import { FOREIGN_LINK_TEXT, useLogView } from '../logs/useLogView.ts';
import { filtersKey } from '../logs/logView.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { PhotoViewer } from './PhotoViewer.tsx';

export const PHOTO_PAGE_SIZES = [6, 12, 18, 24] as const;
export const PHOTO_NOTICE =
  'When the limit is exceeded, the oldest photo log will be automatically deleted. Allowed filetypes: JPG, PNG, WEBP. Max filesize: 10 MB.';

function PhotoCard({ photo, onOpen, levelColor, highlight, serverId }: { photo: ApiLog; onOpen(): void; levelColor: LevelColor | undefined; highlight: string; serverId: string }) {
  return (
    <article className="photo-card" data-testid="photo-card">
      <button type="button" className="photo-frame" onClick={onOpen} aria-label={`Open photo: ${photo.message}`}>
        <img src={resolveApiUrl(photo.thumb_path ?? photo.image_path ?? '')} alt={photo.message} loading="lazy" />
      </button>
      <div className="photo-body">
        <div className="photo-meta">
          <time dateTime={photo.created_at}>{formatTime(photo.created_at)}</time>
          <Tag style={levelColor && { background: levelColor.bg_color, color: levelColor.text_color, borderColor: levelColor.bg_color }}>{photo.level.toUpperCase()}</Tag>
        </div>
        <p className="log-message">
          <Highlight text={photo.message} term={highlight} />
        </p>
        <p className="log-origin">
          Type: {photo.type} · Resource: {photo.resource}
        </p>
        <LogMetadata metadata={photo.metadata} highlight={highlight} />
        <div className="log-actions">
          <ContextButton serverId={serverId} log={photo} />
          <AddToCaseButton serverId={serverId} log={photo} />
        </div>
      </div>
    </article>
  );
}

export default function PhotoLogsPage() {
  const paging = useLogView({ sizes: PHOTO_PAGE_SIZES, defaultSize: PHOTO_PAGE_SIZES[0], liveAllowed: false });
  const { serverId, serverName, resetPage } = paging;
  const { data, currentData, isError } = usePhotoLogsPageQuery(
    { serverId: serverId ?? '', filters: paging.settledFilters, page: paging.page, pageSize: paging.pageSize },
    { skip: !serverId, pollingInterval: LOGS_POLL_MS, skipPollingIfUnfocused: true },
  );
  const { data: colors } = useLevelColorsQuery(serverId ?? '', { skip: !serverId });
  const { data: levels } = useLevelTypesQuery(serverId ?? '', { skip: !serverId });
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const closeViewer = useCallback(() => setViewerIndex(null), []);
  const { filters, applyFilters } = paging;
  const onTimeRange = useCallback((timeFrom: string, timeTo: string) => applyFilters({ ...filters, timeFrom, timeTo }), [filters, applyFilters]);

  // The page returns to 1 when the stored set changes (docs/spec/part-1.txt section 2), not on every
  // identical poll; only for the same filters, so a link to page 3 or a step back keeps its page.
  const total = currentData?.total;
  const filtersSeen = filtersKey(paging.settledFilters);
  const seen = useRef<{ filters: string; total: number } | null>(null);
  useEffect(() => {
    if (total === undefined) return;
    const before = seen.current;
    seen.current = { filters: filtersSeen, total };
    if (before !== null && before.filters === filtersSeen && before.total !== total) resetPage();
  }, [total, filtersSeen, resetPage]);

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Photo Logs</PageTitle>
        <Empty description="Select a server." />
      </div>
    );
  }
  const photos = data?.photologs ?? [];
  const pages = totalPages(data?.total ?? 0, paging.pageSize);

  return (
    <div className="page">
      <PageTitle>Photo Logs – {serverName}</PageTitle>
      {paging.foreignLink && <Alert type="warning" title={FOREIGN_LINK_TEXT} showIcon className="notice" />}
      <Alert type="info" title={PHOTO_NOTICE} showIcon className="notice" />
      <div className="toolbar">
        <LogFiltersPanel value={paging.filters} onChange={paging.setFilters} levels={levels} />
        <PageSizeSelect value={paging.pageSize} sizes={PHOTO_PAGE_SIZES} onChange={paging.setPageSize} />
      </div>
      <LogHistogramPanel serverId={serverId} filters={paging.settledFilters} logType="photo" colors={colors} onTimeRange={onTimeRange} />
      {isError ? (
        <Alert type="error" title="Error while getting photologs." showIcon />
      ) : !data ? (
        <Space>
          <Spin /> <span>Loading photologs...</span>
        </Space>
      ) : (
        <>
          <Typography.Paragraph className="count-line">
            {data.stored} / {data.maxPhotoLogs} photologs stored.
          </Typography.Paragraph>
          {photos.length === 0 ? (
            <Empty description="No photo logs found." />
          ) : (
            <Row gutter={[16, 16]}>
              {photos.map((photo, index) => (
                <Col xs={24} sm={12} lg={8} key={photo.id}>
                  <PhotoCard photo={photo} onOpen={() => setViewerIndex(index)} levelColor={colorForLevel(photo.level, colors)} highlight={paging.settledFilters.search} serverId={serverId} />
                </Col>
              ))}
            </Row>
          )}
          <LevelContrastNote levels={photos.map((photo) => photo.level)} colors={colors} />
          {pages > 1 && <Pager page={paging.page} pages={pages} more={data?.totalCapped ?? false} onPage={paging.setPage} />}
        </>
      )}
      {viewerIndex !== null && photos.length > 0 && <PhotoViewer photos={photos} index={Math.min(viewerIndex, photos.length - 1)} onIndex={setViewerIndex} onClose={closeViewer} />}
    </div>
  );
}
