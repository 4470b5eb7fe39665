import type { ApiDeadLetter } from '@skald/contracts/api';
import { Button } from 'antd';
import { useState } from 'react';

interface Props {
  webhookId: string;
  count: number;
  deadLetters: readonly ApiDeadLetter[];
  replaying: string | null;
  onReplay(deadLetterId: string): void;
  onClear(): void;
}

/** The dead-letter queue of one webhook, shown or hidden (docs/spec/part-1.txt sections 2, 4), each entry replayable. */
export function DeadLetters({ webhookId, count, deadLetters, replaying, onReplay, onClear }: Props) {
  const [open, setOpen] = useState(false);
  const listId = `dead-letters-${webhookId}`;
  if (count === 0) return <span className="muted">No dead letters</span>;
  return (
    <div className="dead-letters">
      <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={listId}>
        {open ? 'Hide dead letters' : `Show dead letters (${count})`}
      </Button>
      {open && (
        <div id={listId}>
          <ul className="dead-letter-list" aria-label="Dead letters">
            {deadLetters.map((d) => (
              <li key={d.id} className="dead-letter" data-testid="dead-letter">
                <div className="dead-letter-head">
                  <time dateTime={d.failed_at}>{new Date(d.failed_at).toLocaleString()}</time>
                  <Button size="small" onClick={() => onReplay(d.id)} loading={replaying === d.id} disabled={replaying !== null && replaying !== d.id}>
                    Replay
                  </Button>
                </div>
                <p className="dead-letter-error">{d.error_message}</p>
                <details className="metadata">
                  <summary>Payload</summary>
                  <pre>{prettyJson(d.payload)}</pre>
                </details>
              </li>
            ))}
          </ul>
          <Button size="small" className="webhook-danger" onClick={onClear}>
            Clear dead letters
          </Button>
        </div>
      )}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
