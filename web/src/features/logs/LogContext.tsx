import { AimOutlined, LinkOutlined } from '@ant-design/icons';
import type { ApiLog, LogContext } from '@skald/contracts/api';
import { Alert, Button, Drawer, Space, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { formatTime } from './LogCard.tsx';
import { colorForLevel, useLevelColorsQuery, useLogContextQuery } from './logsApi.ts';
import { contextHref } from './logView.ts';

export const CONTEXT_TEXT = {
  title: 'Logs around this log',
  loading: 'Loading the logs around this log...',
  failed: 'Failed to load the logs around this log.',
  copyLink: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'Copy failed: select the address below.',
  openInLogs: 'Open in Logs',
  nothingBefore: 'No earlier logs.',
  nothingAfter: 'No later logs.',
} as const;

/** The context in reading order: the earlier logs, the log, the later logs. */
export function contextLines(context: LogContext): { log: ApiLog; focused: boolean }[] {
  return [...context.before.map((log) => ({ log, focused: false })), { log: context.log, focused: true }, ...context.after.map((log) => ({ log, focused: false }))];
}

/** Copies the absolute `?log=` address of a log; says when it is copied (or how to copy it by hand). */
export function CopyContextLink({ serverId, logId }: { serverId: string; logId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const href = `${window.location.origin}${contextHref(serverId, logId)}`;
  const copy = () => {
    const write = navigator.clipboard?.writeText(href) ?? Promise.reject(new Error('no clipboard'));
    write.then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <span className="context-copy">
      <Button size="small" icon={<LinkOutlined />} onClick={copy}>
        {state === 'copied' ? CONTEXT_TEXT.copied : CONTEXT_TEXT.copyLink}
      </Button>
      {state === 'failed' && (
        <span className="context-copy-fallback">
          {CONTEXT_TEXT.copyFailed} <code>{href}</code>
        </span>
      )}
      <span role="status" className="sr-only">
        {state === 'copied' ? CONTEXT_TEXT.copied : ''}
      </span>
    </span>
  );
}

/** A log's neighbours as compact lines, the log itself marked and scrolled into view. */
export function ContextLines({ serverId, logId }: { serverId: string; logId: string }) {
  const { data, isLoading, error } = useLogContextQuery({ serverId, logId });
  const { data: colors } = useLevelColorsQuery(serverId);
  const focused = useRef<HTMLLIElement>(null);
  useEffect(() => {
    focused.current?.scrollIntoView({ block: 'center' });
  }, [data]);
  if (isLoading)
    return (
      <Space>
        <Spin /> <span>{CONTEXT_TEXT.loading}</span>
      </Space>
    );
  if (error || !data) return <Alert type="error" title={errorText(error, CONTEXT_TEXT.failed)} showIcon />;
  return (
    <ol className="context-lines" data-testid="context-lines" aria-label={CONTEXT_TEXT.title}>
      {data.before.length === 0 && <li className="context-edge">{CONTEXT_TEXT.nothingBefore}</li>}
      {contextLines(data).map(({ log, focused: isFocused }) => {
        const color = colorForLevel(log.level, colors);
        return (
          <li key={log.id} ref={isFocused ? focused : undefined} className={isFocused ? 'context-line context-line-focused' : 'context-line'} aria-current={isFocused || undefined} data-testid="context-line">
            <time dateTime={log.created_at}>{formatTime(log.created_at)}</time>
            <span className="context-level" style={color && { background: color.bg_color, color: color.text_color }}>
              {log.level.toUpperCase()}
            </span>
            <span className="context-message">
              {log.log_type === 'photo' ? '[Photo] ' : ''}
              {log.message}
            </span>
            <span className="context-origin">
              [Type: {log.type}] via {log.resource}
            </span>
          </li>
        );
      })}
      {data.after.length === 0 && <li className="context-edge">{CONTEXT_TEXT.nothingAfter}</li>}
    </ol>
  );
}

/** The "Context" action of a log card, photo card or table row: the log's neighbours in a drawer, in place. */
export function ContextButton({ serverId, log }: { serverId: string; log: ApiLog }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button size="small" icon={<AimOutlined />} onClick={() => setOpen(true)} aria-label={`Context: logs around ${log.message}`} className="context-button">
        Context
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={CONTEXT_TEXT.title}
        size="min(640px, 100vw)"
        destroyOnHidden
      >
        <Space wrap className="context-actions">
          <CopyContextLink serverId={serverId} logId={log.id} />
          <Button
            size="small"
            onClick={() => {
              setOpen(false);
              void navigate(contextHref(serverId, log.id));
            }}
          >
            {CONTEXT_TEXT.openInLogs}
          </Button>
        </Space>
        {open && <ContextLines serverId={serverId} logId={log.id} />}
      </Drawer>
    </>
  );
}
