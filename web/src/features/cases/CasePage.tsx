import { DeleteOutlined, FilePdfOutlined } from '@ant-design/icons';
import type { ApiLog, Case, CaseItem } from '@skald/contracts/api';
import { CASE_LIMITS } from '@skald/contracts/api';
import { Alert, Button, Empty, Input, Space, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { resolveApiUrl } from '../../app/api.ts';
import { errorText, statusOf } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { formatTime } from '../logs/LogCard.tsx';
import { LogMetadata } from '../logs/LogMetadata.tsx';
import { colorForLevel, useLevelColorsQuery } from '../logs/logsApi.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { CASE_TEXT, casePdfName, STATUS_LABEL, titleProblem } from './caseText.ts';
import { useCaseDetailQuery, useDeleteCaseMutation, useDownloadCasePdfMutation, useUpdateCaseMutation } from './casesApi.ts';
import { useCaseWriter } from './useCaseWriter.ts';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** /cases/{id} (docs/CASES.md): the case's items with their context, notes, close/reopen, PDF, delete. */
export default function CasePage() {
  const { caseId = '' } = useParams();
  const detail = useCaseDetailQuery(caseId, { skip: caseId === '', refetchOnMountOrArgChange: true });
  if (detail.isError) {
    const missing = statusOf(detail.error) === 404;
    return (
      <div className="page">
        <PageTitle>{CASE_TEXT.screen}</PageTitle>
        <Alert type={missing ? 'warning' : 'error'} title={missing ? CASE_TEXT.notFound : CASE_TEXT.caseFailed} showIcon />
        <Link to="/cases">{CASE_TEXT.screen}</Link>
      </div>
    );
  }
  if (!detail.data) {
    return (
      <div className="page">
        <Space>
          <Spin /> <span>{CASE_TEXT.caseLoading}</span>
        </Space>
      </div>
    );
  }
  return <CaseView data={detail.data} />;
}

function CaseView({ data }: { data: Case }) {
  const writer = useCaseWriter(data.serverId);
  const toast = useToast();
  const navigate = useNavigate();
  const [update, updating] = useUpdateCaseMutation();
  const [remove, removing] = useDeleteCaseMutation();
  const [download, downloading] = useDownloadCasePdfMutation();
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { data: colors } = useLevelColorsQuery(data.serverId);

  async function setStatus(status: Case['status']) {
    const result = await update({ id: data.id, serverId: data.serverId, status });
    if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.saveFailed));
    setProblem(null);
    toast.success(status === 'closed' ? CASE_TEXT.closed : CASE_TEXT.reopened);
  }

  async function pdf() {
    const result = await download({ id: data.id, filename: casePdfName(data.title, data.id) });
    if ('error' in result) toast.error(errorText(result.error, CASE_TEXT.pdfFailed));
  }

  async function destroy() {
    const result = await remove({ id: data.id, serverId: data.serverId });
    if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.saveFailed));
    toast.success(CASE_TEXT.deleted);
    void navigate('/cases');
  }

  return (
    <div className="page case-page">
      <p className="case-breadcrumb">
        <Link to="/cases">{CASE_TEXT.screen}</Link>
      </p>
      <PageTitle className="case-title">{data.title}</PageTitle>
      <div className="case-head">
        <Tag color={data.status === 'open' ? 'blue' : 'default'} data-testid="case-status">
          {STATUS_LABEL[data.status]}
        </Tag>
        <span className="muted">
          {data.itemCount} {data.itemCount === 1 ? 'log' : 'logs'} · opened <time dateTime={data.createdAt}>{formatTime(data.createdAt)}</time>
          {data.bytes > 0 ? ` · ${formatBytes(data.bytes)} of photos` : ''}
        </span>
      </div>
      <Space wrap className="case-actions">
        <Button icon={<FilePdfOutlined />} onClick={() => void pdf()} loading={downloading.isLoading}>
          {CASE_TEXT.pdf}
        </Button>
        {writer && (
          <Button onClick={() => void setStatus(data.status === 'open' ? 'closed' : 'open')} loading={updating.isLoading}>
            {data.status === 'open' ? CASE_TEXT.close : CASE_TEXT.reopen}
          </Button>
        )}
        {writer && !confirming && (
          <Button className="webhook-danger" icon={<DeleteOutlined />} onClick={() => setConfirming(true)}>
            {CASE_TEXT.delete}
          </Button>
        )}
      </Space>
      {confirming && (
        <div className="case-delete-confirm" role="group" aria-label={CASE_TEXT.delete}>
          <p>{CASE_TEXT.deleteConfirm}</p>
          <Space wrap>
            <Button type="primary" className="webhook-danger" onClick={() => void destroy()} loading={removing.isLoading}>
              {CASE_TEXT.confirmDelete}
            </Button>
            <Button onClick={() => setConfirming(false)}>{CASE_TEXT.cancel}</Button>
          </Space>
        </div>
      )}
      {problem !== null && <Alert type="error" title={problem} className="form-alert" showIcon />}
      {writer && <TitleEditor data={data} />}
      <NotesEditor data={data} writer={writer} />
      <p className="muted case-kept">{CASE_TEXT.kept}</p>
      {data.items.length === 0 ? (
        <Empty />
      ) : (
        <ol className="case-items" aria-label="Logs of the case">
          {data.items.map((item, n) => (
            <CaseItemView key={item.log.id} item={item} n={n + 1} colors={colors} />
          ))}
        </ol>
      )}
    </div>
  );
}

function TitleEditor({ data }: { data: Case }) {
  const [title, setTitle] = useState(data.title);
  const [problem, setProblem] = useState<string | null>(null);
  const [update, updating] = useUpdateCaseMutation();
  const toast = useToast();
  useEffect(() => setTitle(data.title), [data.title]);
  async function save() {
    const local = titleProblem(title);
    setProblem(local);
    if (local !== null) return;
    const result = await update({ id: data.id, serverId: data.serverId, title: title.trim() });
    if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.saveFailed));
    toast.success(CASE_TEXT.titleSaved);
  }
  return (
    <div className="case-title-editor">
      <label className="field-label" htmlFor="case-title-input">
        {CASE_TEXT.titleLabel}
      </label>
      <div className="case-editor-row">
        <Input id="case-title-input" value={title} maxLength={CASE_LIMITS.maxTitleLength + 20} onChange={(e) => setTitle(e.target.value)} aria-invalid={problem !== null} />
        <Button onClick={() => void save()} loading={updating.isLoading} disabled={title.trim() === data.title}>
          {CASE_TEXT.saveTitle}
        </Button>
      </div>
      {problem !== null && <Alert type="error" title={problem} className="form-alert" showIcon />}
    </div>
  );
}

function NotesEditor({ data, writer }: { data: Case; writer: boolean }) {
  const [notes, setNotes] = useState(data.notes);
  const [problem, setProblem] = useState<string | null>(null);
  const [update, updating] = useUpdateCaseMutation();
  const toast = useToast();
  useEffect(() => setNotes(data.notes), [data.notes]);
  if (!writer) {
    return (
      <section className="case-notes" aria-label={CASE_TEXT.notesLabel}>
        <h2 className="section-title">{CASE_TEXT.notesLabel}</h2>
        <p className="case-notes-text">{data.notes === '' ? '—' : data.notes}</p>
      </section>
    );
  }
  async function save() {
    const result = await update({ id: data.id, serverId: data.serverId, notes });
    if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.saveFailed));
    setProblem(null);
    toast.success(CASE_TEXT.notesSaved);
  }
  return (
    <section className="case-notes" aria-label={CASE_TEXT.notesLabel}>
      <label className="field-label" htmlFor="case-notes-input">
        {CASE_TEXT.notesLabel}
      </label>
      <Input.TextArea id="case-notes-input" value={notes} onChange={(e) => setNotes(e.target.value)} autoSize={{ minRows: 3, maxRows: 12 }} maxLength={CASE_LIMITS.maxNotesLength} />
      <Button onClick={() => void save()} loading={updating.isLoading} disabled={notes === data.notes} className="case-notes-save">
        {CASE_TEXT.notesSave}
      </Button>
      {problem !== null && <Alert type="error" title={problem} className="form-alert" showIcon />}
    </section>
  );
}

function CaseLine({ log, chosen, colors }: { log: ApiLog; chosen: boolean; colors: ReturnType<typeof useLevelColorsQuery>['data'] }) {
  const color = colorForLevel(log.level, colors);
  return (
    <li className={chosen ? 'case-line case-line-chosen' : 'case-line'} aria-current={chosen || undefined} data-testid={chosen ? 'case-chosen-line' : 'case-line'}>
      <div className="case-line-head">
        <time dateTime={log.created_at}>{formatTime(log.created_at)}</time>
        <span className="context-level" style={color && { background: color.bg_color, color: color.text_color }}>
          {log.level.toUpperCase()}
        </span>
        {chosen && <span className="case-chosen-mark">{CASE_TEXT.chosen}</span>}
      </div>
      <p className="case-line-message">{log.message}</p>
      <p className="log-origin">
        [Type: {log.type}] via {log.resource}
      </p>
      {log.log_type === 'photo' && (log.thumb_path ?? log.image_path) && (
        <a className="photo-frame case-photo" href={resolveApiUrl(log.image_path ?? log.thumb_path ?? '')} target="_blank" rel="noreferrer" aria-label={`Open photo: ${log.message}`}>
          <img src={resolveApiUrl(log.thumb_path ?? log.image_path ?? '')} alt={log.message} loading="lazy" />
        </a>
      )}
      <LogMetadata metadata={log.metadata} />
    </li>
  );
}

function CaseItemView({ item, n, colors }: { item: CaseItem; n: number; colors: ReturnType<typeof useLevelColorsQuery>['data'] }) {
  return (
    <li className="case-item" data-testid="case-item">
      <h2 className="section-title case-item-title">
        {n}. {item.log.type} · {item.log.resource}
      </h2>
      <ol className="case-lines" aria-label={`Log ${n} and its context`}>
        {item.before.map((log) => (
          <CaseLine key={log.id} log={log} chosen={false} colors={colors} />
        ))}
        <CaseLine log={item.log} chosen colors={colors} />
        {item.after.map((log) => (
          <CaseLine key={log.id} log={log} chosen={false} colors={colors} />
        ))}
      </ol>
    </li>
  );
}
