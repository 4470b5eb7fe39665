import { Alert, Button, Empty, Segmented, Space, Spin } from 'antd';
import { useCallback, useState } from 'react';
import { LevelContrastNote } from '../logs/LevelContrastNote.tsx';
import { LogCard } from '../logs/LogCard.tsx';
import { colorForLevel, useLevelColorsQuery } from '../logs/logsApi.ts';
import { PhotoViewer } from '../photologs/PhotoViewer.tsx';
import { PLAYERS_TEXT, usePlayerTimelineInfiniteQuery, type TimelineKind } from './playersApi.ts';

const KINDS: { label: string; value: TimelineKind }[] = [
  { label: 'All logs', value: 'all' },
  { label: 'Text logs', value: 'text' },
  { label: 'Photo logs', value: 'photo' },
];

/**
 * The logs that mention the player, newest first, text and photo logs together (or one kind): the log
 * cards of /logs, a photo log's thumbnail opening the photo viewer. Older logs load on demand (keyset pages).
 */
export function PlayerTimeline({ serverId, playerId }: { serverId: string; playerId: string }) {
  const [kind, setKind] = useState<TimelineKind>('all');
  const timeline = usePlayerTimelineInfiniteQuery({ serverId, playerId, kind }, { refetchOnMountOrArgChange: true });
  const { data: colors } = useLevelColorsQuery(serverId);
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const closeViewer = useCallback(() => setViewerIndex(null), []);

  const logs = timeline.currentData?.pages.flatMap((page) => page.logs) ?? [];
  const photos = logs.filter((log) => log.log_type === 'photo' && log.image_path);

  return (
    <section className="player-timeline" aria-labelledby="timeline-heading">
      <div className="player-timeline-head">
        <h2 id="timeline-heading" className="section-title">
          Timeline
        </h2>
        <Segmented<TimelineKind> options={KINDS} value={kind} onChange={setKind} aria-label="Which logs" />
      </div>
      {timeline.isError && logs.length === 0 ? (
        <Alert type="error" title={PLAYERS_TEXT.timelineFailed} showIcon />
      ) : !timeline.currentData ? (
        <Space>
          <Spin /> <span>{PLAYERS_TEXT.loadingTimeline}</span>
        </Space>
      ) : logs.length === 0 ? (
        <Empty description={PLAYERS_TEXT.timelineEmpty} />
      ) : (
        <>
          <div className="log-list" data-testid="player-timeline">
            {logs.map((log) => {
              const photoIndex = photos.indexOf(log);
              return <LogCard key={log.id} log={log} color={colorForLevel(log.level, colors)} onOpenPhoto={photoIndex < 0 ? undefined : () => setViewerIndex(photoIndex)} serverId={serverId} />;
            })}
          </div>
          <LevelContrastNote levels={logs.map((log) => log.level)} colors={colors} />
          {timeline.isError && <Alert type="error" title={PLAYERS_TEXT.timelineFailed} showIcon />}
          {timeline.hasNextPage ? (
            <Button onClick={() => void timeline.fetchNextPage()} loading={timeline.isFetchingNextPage} className="load-older">
              Load older logs
            </Button>
          ) : (
            <p className="muted-line">{logs.length === 1 ? 'That is the only log.' : `That is all ${logs.length} logs.`}</p>
          )}
        </>
      )}
      {viewerIndex !== null && photos.length > 0 && <PhotoViewer photos={photos} index={Math.min(viewerIndex, photos.length - 1)} onIndex={setViewerIndex} onClose={closeViewer} />}
    </section>
  );
}
