import { useState } from 'react';

/** A copyable example: the code as shown, and a Copy button (plain markup: public pages load no antd). */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => {
        setCopied(true);
        window.setTimeout(() => setCopied(false), 2000);
      },
      () => setCopied(false),
    );
  };
  return (
    <div className="code-block">
      <pre role="group" aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <button type="button" className="copy-button" onClick={copy} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
