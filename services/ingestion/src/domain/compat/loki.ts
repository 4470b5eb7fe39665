/**
 * Loki push (`POST /loki/api/v1/push`), the body ox_lib's `loki` provider and Promtail-style clients send:
 * JSON `{ streams: [{ stream: {labels}, values: [[ns, line], …] }] }` or Loki's snappy-compressed
 * protobuf PushRequest. Each entry is one log:
 *   - labels: `event` → type, `resource` → resource, every other label (ox_lib's `server`) → metadata;
 *   - line: ox_lib sends a JSON object text `{"message": …, <tags>}`, unpacked into message and metadata;
 *     any other line is the message itself;
 *   - the nanosecond timestamp → the log's time, to the millisecond (log-time.ts: within the window around
 *     the arrival; outside it the arrival, and the metadata names the nanoseconds sent).
 * Entries keep the order they arrived in, stream by stream. Nothing is deduplicated: ox_lib stamps whole
 * seconds, so two different logs often share timestamp and even line.
 */
import type { Type } from 'protobufjs';
import { LOG_LIMITS } from '@skald/contracts';
import { isPlainObject } from '../log-input.ts';
import { ClientTime } from '../log-time.ts';
import { CompatShapeError, compatLog, withoutLuaTables } from './compat-log.ts';
import type { CompatLog } from './compat-log.ts';

const EXPECTED_JSON = 'a Loki push body {"streams":[{"stream":{…},"values":[["<unix ns>","<line>"]]}]}';

/** Loki's push.proto (pkg/push/push.proto), the fields a push carries. */
const PUSH_PROTO = `
syntax = "proto3";
package logproto;
message PushRequest { repeated StreamAdapter streams = 1; }
message StreamAdapter { string labels = 1; repeated EntryAdapter entries = 2; uint64 hash = 3; }
message EntryAdapter { Timestamp timestamp = 1; string line = 2; repeated LabelPairAdapter structuredMetadata = 3; }
message LabelPairAdapter { string name = 1; string value = 2; }
message Timestamp { int64 seconds = 1; int32 nanos = 2; }
`;

interface PushCodec {
  readonly uncompress: (compressed: Buffer, maxLength: number) => Uint8Array;
  readonly pushRequest: Type;
}

let pushCodec: Promise<PushCodec> | undefined;

/**
 * protobufjs, its Long support and snappyjs (~50 modules) are loaded with the first protobuf push, not at
 * start-up: most servers never send one, and every module loaded at start-up stays in the idle process's
 * heap (idle memory).
 */
function loadPushCodec(): Promise<PushCodec> {
  pushCodec ??= Promise.all([import('protobufjs'), import('snappyjs')]).then(([protobuf, snappy]) => ({
    uncompress: (compressed, maxLength) => snappy.default.uncompress(compressed, maxLength),
    pushRequest: protobuf.default.parse(PUSH_PROTO).root.lookupType('logproto.PushRequest'),
  }));
  // A failed load (a broken install) is tried again by the next push rather than remembered.
  pushCodec.catch(() => {
    pushCodec = undefined;
  });
  return pushCodec;
}

interface LokiEntry {
  readonly timestampNs: string;
  readonly line: string;
  readonly structured: Record<string, string>;
}

interface LokiStream {
  readonly labels: Record<string, string>;
  readonly entries: readonly LokiEntry[];
}

function tooMany(count: number): void {
  if (count > LOG_LIMITS.maxBatch) throw new CompatShapeError('streams', `at most ${LOG_LIMITS.maxBatch} entries in one push`);
}

/** Epoch ms of a Unix time in nanoseconds written as digits (at most 19: far below 2^53 once divided). */
function nsToMs(ns: string): number {
  return ns.length <= 6 ? 0 : Number(ns.slice(0, ns.length - 6));
}

/** One entry as a native log. */
function entryLog(labels: Record<string, string>, entry: LokiEntry): CompatLog {
  const { event, resource, level, ...otherLabels } = labels;
  let message = entry.line;
  let fromLine: Record<string, unknown> = {};
  if (entry.line.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(entry.line);
      if (isPlainObject(parsed)) {
        const { message: lineMessage, ...rest } = parsed;
        if (typeof lineMessage === 'string' && lineMessage.trim() !== '') {
          message = lineMessage;
          fromLine = withoutLuaTables(rest);
        }
      }
    } catch {
      // Not JSON after all: the line is the message.
    }
  }
  if (message.trim() === '') message = event ?? '(empty line)';
  return compatLog({
    message,
    level: level ?? fromLine['level'],
    type: event,
    resource,
    metadata: { ...otherLabels, ...entry.structured, ...fromLine },
    timestamp: new ClientTime(nsToMs(entry.timestampNs), entry.timestampNs),
  });
}

function logsOf(streams: readonly LokiStream[]): CompatLog[] {
  const logs: CompatLog[] = [];
  for (const stream of streams) for (const entry of stream.entries) logs.push(entryLog(stream.labels, entry));
  if (logs.length === 0) throw new CompatShapeError('streams', `${EXPECTED_JSON} with at least one entry`);
  return logs;
}

function stringRecord(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new CompatShapeError(field, 'an object of label names to strings');
  const labels: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string' && typeof text !== 'number' && typeof text !== 'boolean') throw new CompatShapeError(`${field}.${name}`, 'a string');
    labels[name] = String(text);
  }
  return labels;
}

/** The JSON push body (already parsed by the JSON content parser). */
export function parseLokiJson(body: unknown): CompatLog[] {
  if (!isPlainObject(body) || !Array.isArray(body['streams'])) throw new CompatShapeError('body', EXPECTED_JSON);
  const streams = body['streams'] as unknown[];
  let count = 0;
  const parsed = streams.map((stream, s): LokiStream => {
    if (!isPlainObject(stream) || !Array.isArray(stream['values'])) throw new CompatShapeError(`streams[${s}]`, '{"stream":{…},"values":[…]}');
    const labels = stringRecord(stream['stream'], `streams[${s}].stream`);
    const values = stream['values'] as unknown[];
    count += values.length;
    tooMany(count);
    const entries = values.map((value, v): LokiEntry => {
      const field = `streams[${s}].values[${v}]`;
      if (!Array.isArray(value) || value.length < 2) throw new CompatShapeError(field, '["<unix ns>","<line>"]');
      const [timestamp, line, structured] = value as unknown[];
      if (typeof timestamp !== 'string' || !/^\d{1,19}$/.test(timestamp)) throw new CompatShapeError(`${field}[0]`, 'a Unix time in nanoseconds as a string');
      if (typeof line !== 'string') throw new CompatShapeError(`${field}[1]`, 'the log line as a string');
      return { timestampNs: timestamp, line, structured: stringRecord(structured, `${field}[2]`) };
    });
    return { labels, entries };
  });
  return logsOf(parsed);
}

/**
 * Loki's label text `{event="join", resource="ox_core"}`: names, `=`, double-quoted values with `\"`,
 * `\\` and `\n` escapes, comma separated.
 */
export function parseLabelText(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const body = text.trim().replace(/^\{/, '').replace(/\}$/, '');
  const pair = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/gy;
  let at = 0;
  while (at < body.length) {
    pair.lastIndex = at;
    const match = pair.exec(body);
    if (match === null) throw new CompatShapeError('streams.labels', 'Prometheus label text like {event="join",resource="my_resource"}');
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    at = pair.lastIndex;
  }
  return labels;
}

interface DecodedPush {
  streams?: { labels?: string; entries?: { timestamp?: { seconds?: string; nanos?: number }; line?: string; structuredMetadata?: { name?: string; value?: string }[] }[] }[];
}

/** Largest decompressed push accepted: the same bound as a JSON body. */
export const MAX_PUSH_BYTES = 5 * 1024 * 1024;

/** A snappy-compressed protobuf PushRequest (Content-Type application/x-protobuf). */
export async function parseLokiProtobuf(compressed: Buffer): Promise<CompatLog[]> {
  const { uncompress, pushRequest } = await loadPushCodec();
  let raw: Uint8Array;
  try {
    raw = uncompress(compressed, MAX_PUSH_BYTES);
  } catch {
    throw new CompatShapeError('body', `a snappy-compressed protobuf PushRequest (block format) of at most ${MAX_PUSH_BYTES} bytes uncompressed`);
  }
  let decoded: DecodedPush;
  try {
    decoded = pushRequest.toObject(pushRequest.decode(raw), { longs: String, defaults: false }) as DecodedPush;
  } catch {
    throw new CompatShapeError('body', 'a protobuf logproto.PushRequest');
  }
  let count = 0;
  const streams = (decoded.streams ?? []).map((stream): LokiStream => {
    const entries = (stream.entries ?? []).map((entry): LokiEntry => {
      const seconds = BigInt(entry.timestamp?.seconds ?? '0');
      const nanos = BigInt(entry.timestamp?.nanos ?? 0);
      const structured: Record<string, string> = {};
      for (const pair of entry.structuredMetadata ?? []) if (pair.name) structured[pair.name] = pair.value ?? '';
      return { timestampNs: String(seconds * 1_000_000_000n + nanos), line: entry.line ?? '', structured };
    });
    count += entries.length;
    tooMany(count);
    return { labels: parseLabelText(stream.labels ?? '{}'), entries };
  });
  return logsOf(streams);
}
