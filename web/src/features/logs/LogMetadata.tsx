// Collapsible 'View metadata' with formatted JSON, only when metadata is not empty (spec 000 §2).
export function hasMetadata(metadata: unknown): metadata is Record<string, unknown> {
  return typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length > 0;
}

export function LogMetadata({ metadata }: { metadata: unknown }) {
  if (!hasMetadata(metadata)) return null;
  return (
    <details className="metadata">
      <summary>View metadata</summary>
      <pre>{JSON.stringify(metadata, null, 2)}</pre>
    </details>
  );
}
