/**
 * Listing a server's logs (GET /logs/my, /logs/my/combined, /photologs/my): the list query translated for
 * the log store, one page read, each log answered in the API's shape (photo URLs signed for now). The
 * server is the one the route's guard granted, never read again from the request.
 */
import type { ApiLog } from '@skald/contracts';
import type { LogStore, LogType } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { ImageUrlSigner } from './image-url.ts';
import { toLogQuery } from './list-query.ts';
import type { ListQuery } from './list-query.ts';
import { toApiLog } from './log-view.ts';

export interface LogListDeps {
  readonly logStore: Pick<LogStore, 'query'>;
  readonly signer: ImageUrlSigner;
  readonly now: () => number;
}

/** One page and the number of logs matching the filters on all pages (exact up to the store's cap). */
export interface LogList {
  readonly logs: ApiLog[];
  readonly total: number;
  readonly totalCapped: boolean;
}

/** A bad filter (a day, a time zone, an instant) is a 400 naming it. `logType` undefined: text and photo logs. */
export async function listLogs(deps: LogListDeps, serverId: string, input: ListQuery, logType: LogType | undefined, defaultPageSize: number): Promise<LogList> {
  const parsed = toLogQuery(serverId, input, logType, defaultPageSize);
  if (!parsed.ok) throw new HttpError(400, parsed.error);
  const page = await deps.logStore.query(parsed.query);
  const now = deps.now();
  return { logs: page.items.map((r) => toApiLog(r, deps.signer, now)), total: page.total, totalCapped: page.totalCapped };
}
