import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

interface Tab {
  readonly key: string;
  readonly label: string;
  readonly render: () => ReactNode;
}

/**
 * The server page's tabs (WAI-ARIA tabs: arrow keys move between them, only the chosen panel is mounted).
 * Plain buttons in the page's text colour: antd's Tabs draw the active tab in the primary blue, below 4.5:1
 * on the dark theme's background.
 */
export function ServerTabs({ tabs }: { tabs: readonly Tab[] }) {
  const [active, setActive] = useState(tabs[0]?.key ?? '');
  const base = useId();
  const current = tabs.find((t) => t.key === active) ?? tabs[0];
  const onKey = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    setActive(next.key);
    document.getElementById(`${base}-tab-${next.key}`)?.focus();
  };
  return (
    <div className="admin-tabs">
      <div role="tablist" aria-label="Server details" className="admin-tablist">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            id={`${base}-tab-${tab.key}`}
            type="button"
            role="tab"
            aria-selected={tab.key === current?.key}
            aria-controls={`${base}-panel`}
            tabIndex={tab.key === current?.key ? 0 : -1}
            className={tab.key === current?.key ? 'admin-tab active' : 'admin-tab'}
            onClick={() => setActive(tab.key)}
            onKeyDown={(e) => onKey(e, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={`${base}-panel`} role="tabpanel" aria-labelledby={`${base}-tab-${current?.key ?? ''}`} className="admin-tabpanel">
        {current?.render()}
      </div>
    </div>
  );
}
