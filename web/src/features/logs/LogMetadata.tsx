import { Highlight, hitRanges } from '../common/Highlight.tsx';

// Collapsible 'View metadata' with formatted JSON, only when metadata is not empty (spec 000 §2).
// A search hit inside it opens it, marked.
export function hasMetadata(metadata: unknown): metadata is Record<string, unknown> {
  return typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length > 0;
}

export function LogMetadata({ metadata, highlight }: { metadata: unknown; highlight?: string | undefined }) {
  if (!hasMetadata(metadata)) return null;
  const text = JSON.stringify(metadata, null, 2);
  const hit = highlight !== undefined && hitRanges(text, highlight).length > 0;
  return (
    <details className="metadata" open={hit || undefined}>
      <summary>View metadata</summary>
      <pre>
        <Highlight text={text} term={highlight} />
      </pre>
    </details>
  );
}
