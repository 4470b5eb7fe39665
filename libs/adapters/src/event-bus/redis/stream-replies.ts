/** Parsing of Redis stream replies (ioredis returns them as nested arrays of strings). */
import type { BusMessage } from '@skald/ports';

export interface StreamEntry {
  readonly streamId: string;
  readonly message: Omit<BusMessage, 'attempt' | 'topic'>;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Field layout written by publish(): id, k (key), h (headers JSON), p (payload JSON). */
export function encodeFields(id: string, key: string, headers: Readonly<Record<string, string>>, payload: string): string[] {
  return ['id', id, 'k', key, 'h', JSON.stringify(headers), 'p', payload];
}

export function decodeEntry(raw: unknown): StreamEntry | null {
  if (!Array.isArray(raw) || typeof raw[0] !== 'string') return null;
  const [streamId, fieldList] = raw as [string, unknown];
  // Entries deleted (trimmed) while pending come back with null fields.
  if (!isStringArray(fieldList)) return null;
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < fieldList.length; i += 2) fields.set(fieldList[i]!, fieldList[i + 1]!);
  const headersText = fields.get('h') ?? '{}';
  const payloadText = fields.get('p') ?? 'null';
  let headers: Record<string, string>;
  let payload: unknown;
  try {
    headers = JSON.parse(headersText) as Record<string, string>;
    payload = JSON.parse(payloadText) as unknown;
  } catch {
    // Written by something other than this adapter: deliver it raw; the consumer decides.
    headers = {};
    payload = payloadText;
  }
  return { streamId, message: { id: fields.get('id') ?? streamId, key: fields.get('k') ?? '', headers, payload } };
}

/** XREADGROUP reply: [[stream, [[id, fields], ...]], ...] or null on timeout. */
export function parseReadGroupReply(reply: unknown): Map<string, StreamEntry[]> {
  const byStream = new Map<string, StreamEntry[]>();
  if (!Array.isArray(reply)) return byStream;
  for (const streamReply of reply) {
    if (!Array.isArray(streamReply) || typeof streamReply[0] !== 'string' || !Array.isArray(streamReply[1])) continue;
    const entries = (streamReply[1] as unknown[]).map(decodeEntry).filter((entry) => entry !== null);
    byStream.set(streamReply[0], entries);
  }
  return byStream;
}

/**
 * The entries of an XREAD reply per stream, undecoded: each entry's stream id and key (field k), so a
 * reader can skip an entry without parsing its payload and still move past it.
 */
export function rawEntriesByStream(reply: unknown): Map<string, { streamId: string; key: string; raw: unknown }[]> {
  const byStream = new Map<string, { streamId: string; key: string; raw: unknown }[]>();
  if (!Array.isArray(reply)) return byStream;
  for (const streamReply of reply) {
    if (!Array.isArray(streamReply) || typeof streamReply[0] !== 'string' || !Array.isArray(streamReply[1])) continue;
    const entries: { streamId: string; key: string; raw: unknown }[] = [];
    for (const raw of streamReply[1] as unknown[]) {
      if (!Array.isArray(raw) || typeof raw[0] !== 'string') continue;
      const fields: unknown = raw[1];
      let key = '';
      if (isStringArray(fields)) {
        for (let i = 0; i + 1 < fields.length; i += 2) {
          if (fields[i] === 'k') {
            key = fields[i + 1]!;
            break;
          }
        }
      }
      entries.push({ streamId: raw[0], key, raw });
    }
    byStream.set(streamReply[0], entries);
  }
  return byStream;
}

/** XAUTOCLAIM reply: [nextCursor, [[id, fields], ...], deletedIds]. */
export function parseAutoClaimReply(reply: unknown): { cursor: string; entries: StreamEntry[] } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string' || !Array.isArray(reply[1])) return { cursor: '0-0', entries: [] };
  return { cursor: reply[0], entries: (reply[1] as unknown[]).map(decodeEntry).filter((entry) => entry !== null) };
}

/** XPENDING key group start end count: [[id, consumer, idleMs, deliveries], ...]. */
export function parsePendingDeliveries(reply: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  if (!Array.isArray(reply)) return counts;
  for (const row of reply) {
    if (Array.isArray(row) && typeof row[0] === 'string') counts.set(row[0], Number(row[3]));
  }
  return counts;
}

/** Stream ids `ms-seq` compared numerically. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs = 0n, aSeq = 0n] = a.split('-').map((part) => BigInt(part));
  const [bMs = 0n, bSeq = 0n] = b.split('-').map((part) => BigInt(part));
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  if (aSeq !== bSeq) return aSeq < bSeq ? -1 : 1;
  return 0;
}

/** XINFO GROUPS: a list of flat [name, value, ...] arrays. */
export function parseGroupsInfo(reply: unknown): { name: string; pending: number; lastDeliveredId: string }[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((row: unknown) => {
    if (!Array.isArray(row)) return [];
    const info = new Map<string, unknown>();
    for (let i = 0; i + 1 < row.length; i += 2) info.set(String(row[i]), row[i + 1]);
    const name = info.get('name');
    const lastDeliveredId = info.get('last-delivered-id');
    if (typeof name !== 'string' || typeof lastDeliveredId !== 'string') return [];
    return [{ name, pending: Number(info.get('pending') ?? 0), lastDeliveredId }];
  });
}
