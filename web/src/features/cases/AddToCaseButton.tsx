import { FolderAddOutlined } from '@ant-design/icons';
import type { ApiLog } from '@skald/contracts/api';
import { CASE_LIMITS } from '@skald/contracts/api';
import { Alert, Button, Input, Modal, Radio, Select, Space } from 'antd';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { CASE_TEXT, titleProblem } from './caseText.ts';
import { useAddCaseLogsMutation, useCasesQuery, useCreateCaseMutation } from './casesApi.ts';
import { useCaseWriter } from './useCaseWriter.ts';

type Target = 'existing' | 'new';

/**
 * "Add to case" on a log card, a photo card or a player's timeline (owner and admin only; a user sees
 * nothing): add the log, with its context, to one of the server's open cases, or open a new case with it.
 */
export function AddToCaseButton({ serverId, log }: { serverId: string; log: ApiLog }) {
  const writer = useCaseWriter(serverId);
  const [open, setOpen] = useState(false);
  if (!writer) return null;
  return (
    <>
      <Button size="small" icon={<FolderAddOutlined />} onClick={() => setOpen(true)} aria-label={`Add to case: ${log.message}`} className="add-to-case-button">
        {CASE_TEXT.addButton}
      </Button>
      <Modal open={open} onCancel={() => setOpen(false)} title={CASE_TEXT.dialogTitle} footer={null} destroyOnHidden>
        {open && <AddToCaseForm serverId={serverId} log={log} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function AddToCaseForm({ serverId, log, onDone }: { serverId: string; log: ApiLog; onDone(): void }) {
  const list = useCasesQuery(serverId);
  const openCases = (list.data?.cases ?? []).filter((c) => c.status === 'open');
  const [target, setTarget] = useState<Target | null>(null);
  const [caseId, setCaseId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [create, creating] = useCreateCaseMutation();
  const [add, adding] = useAddCaseLogsMutation();
  const toast = useToast();
  // Until the list is read, and with no open case, a new case is the choice.
  const chosen: Target = target ?? (openCases.length > 0 ? 'existing' : 'new');
  const selected = caseId ?? openCases[0]?.id ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen === 'new') {
      const local = titleProblem(title);
      setProblem(local);
      if (local !== null) return;
      const result = await create({ serverId, title: title.trim(), notes, logIds: [log.id] });
      if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.addFailed));
      toast.success(CASE_TEXT.created);
      return onDone();
    }
    if (selected === null) return;
    const result = await add({ id: selected, serverId, logIds: [log.id] });
    if ('error' in result) return setProblem(errorText(result.error, CASE_TEXT.addFailed));
    toast.success(CASE_TEXT.added);
    onDone();
  }

  return (
    <form className="add-to-case-form" onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted add-to-case-log">{log.message}</p>
      {list.isError && <Alert type="error" title={CASE_TEXT.loadFailed} showIcon />}
      <Radio.Group
        value={chosen}
        onChange={(e) => {
          setTarget(e.target.value as Target);
          setProblem(null);
        }}
        className="add-to-case-choice"
        aria-label={CASE_TEXT.dialogTitle}
      >
        <Radio value="existing" disabled={openCases.length === 0}>
          {CASE_TEXT.chooseExisting}
        </Radio>
        <Radio value="new">{CASE_TEXT.createNew}</Radio>
      </Radio.Group>
      {chosen === 'existing' ? (
        <div className="add-to-case-fields">
          <label className="field-label" htmlFor="add-to-case-select">
            {CASE_TEXT.chooseExisting}
          </label>
          <Select
            id="add-to-case-select"
            value={selected ?? undefined}
            onChange={(value: string) => setCaseId(value)}
            options={openCases.map((c) => ({ value: c.id, label: `${c.title} (${c.itemCount})` }))}
            style={{ width: '100%' }}
          />
        </div>
      ) : (
        <div className="add-to-case-fields">
          {list.data !== undefined && openCases.length === 0 && <p className="muted">{CASE_TEXT.noOpenCases}</p>}
          <label className="field-label" htmlFor="add-to-case-title">
            {CASE_TEXT.titleLabel}
          </label>
          <Input
            id="add-to-case-title"
            value={title}
            maxLength={CASE_LIMITS.maxTitleLength + 20}
            onChange={(e) => {
              setTitle(e.target.value);
              setProblem(null);
            }}
            placeholder="e.g. Bank robbery, 12 March"
            aria-invalid={problem !== null}
          />
          <label className="field-label" htmlFor="add-to-case-notes">
            {CASE_TEXT.notesLabel}
          </label>
          <Input.TextArea id="add-to-case-notes" value={notes} onChange={(e) => setNotes(e.target.value)} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={CASE_LIMITS.maxNotesLength} />
        </div>
      )}
      {problem !== null && <Alert type="error" title={problem} className="form-alert" showIcon />}
      <Space className="add-to-case-actions" wrap>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || adding.isLoading}>
          {chosen === 'new' ? CASE_TEXT.create : CASE_TEXT.add}
        </Button>
        <Link to="/cases" onClick={onDone}>
          {CASE_TEXT.screen}
        </Link>
      </Space>
    </form>
  );
}
