/** What every platform's payload builder works with. */
import type { LogLevel } from '@skald/contracts';

/** A matched log, as the accepted-logs event carried it (no photo keys: images stay in Skald). */
export interface WebhookLog {
  readonly id: string;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly level: LogLevel;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly logType: 'text' | 'photo';
}

export interface PayloadContext {
  /** The delivery id: PagerDuty's dedup_key, the generic payload's id and webhook-id header, a footer elsewhere. */
  readonly deliveryId: string;
  readonly serverName: string;
  readonly webhookId: string;
}

export interface PlatformFormat {
  /** Splits matched logs into the groups one message each carries (within the platform's limits). */
  pack(logs: readonly WebhookLog[]): WebhookLog[][];
  /** The JSON body of one message, WITHOUT destination credentials (added at send time by withDestination). */
  build(logs: readonly WebhookLog[], context: PayloadContext): Record<string, unknown>;
}

/** Cuts text to `max` characters (code points), marking the cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Groups of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Groups in order, each within `maxItems` and `maxWeight` (an item heavier than the budget goes alone). */
export function packByWeight<T>(items: readonly T[], maxItems: number, maxWeight: number, weight: (item: T) => number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let total = 0;
  for (const item of items) {
    const w = weight(item);
    if (current.length > 0 && (current.length >= maxItems || total + w > maxWeight)) {
      out.push(current);
      current = [];
      total = 0;
    }
    current.push(item);
    total += w;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export const LEVEL_LABEL = (level: string) => level.toUpperCase();

/** Compact one-line metadata (JSON), bounded. */
export function metadataLine(metadata: WebhookLog['metadata'], max: number): string | null {
  if (metadata === null || Object.keys(metadata).length === 0) return null;
  return truncate(JSON.stringify(metadata), max);
}
