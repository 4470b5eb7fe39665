/**
 * What an export selects: the kinds, the log filters and the period. Checked here, before the
 * export is counted, so a refused query costs the month nothing.
 */
import { EXPORT_TYPES, isExportType } from '@skald/contracts';
import type { ExportType } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { endOfDayIn, isTimeZone, startOfDayIn } from '../local-days.ts';

export const NO_TYPES = 'Select at least one log type!';
export const UNKNOWN_TYPE = `Unknown export type. Use ${EXPORT_TYPES.join(', ')}.`;
export const BAD_DATE = 'Dates must be real days written YYYY-MM-DD.';
export const DATES_REVERSED = 'The start date must not be after the end date.';
export const BAD_TIME_ZONE = 'Unknown time zone.';

export interface ExportSelection {
  readonly serverId: string;
  /** In the order asked for, each once. */
  readonly kinds: readonly ExportType[];
  /** Case-insensitive equality on logs and photo logs (audit entries have no level, type or resource). */
  readonly level?: string;
  readonly type?: string;
  readonly resource?: string;
  /** Inclusive epoch-ms bounds on the row's time. */
  readonly from?: number;
  readonly to?: number;
}

export function exportTypeOf(value: string): ExportType {
  if (!isExportType(value)) throw new HttpError(400, UNKNOWN_TYPE);
  return value;
}

export interface CustomExportQuery {
  readonly serverId: string;
  readonly types?: string;
  readonly level?: string;
  readonly type?: string;
  readonly resource?: string;
  readonly from?: string;
  readonly to?: string;
  readonly timeZone?: string;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** `types=a,b` and the filters of GET /exports/custom; dates are whole days in timeZone (UTC when absent). */
export function customSelection(query: CustomExportQuery): ExportSelection {
  const names = (query.types ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (names.length === 0) throw new HttpError(400, NO_TYPES);
  const kinds = [...new Set(names.map(exportTypeOf))];
  const zone = present(query.timeZone) ? query.timeZone.trim() : 'UTC';
  if (!isTimeZone(zone)) throw new HttpError(400, BAD_TIME_ZONE);
  const from = present(query.from) ? startOfDayIn(query.from.trim(), zone) : undefined;
  const to = present(query.to) ? endOfDayIn(query.to.trim(), zone) : undefined;
  if (from === null || to === null) throw new HttpError(400, BAD_DATE);
  if (from !== undefined && to !== undefined && from > to) throw new HttpError(400, DATES_REVERSED);
  return {
    serverId: query.serverId,
    kinds,
    ...(present(query.level) ? { level: query.level.trim() } : {}),
    ...(present(query.type) ? { type: query.type.trim() } : {}),
    ...(present(query.resource) ? { resource: query.resource.trim() } : {}),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
}
