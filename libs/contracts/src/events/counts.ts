/**
 * Per-server figures the admin area shows but other services own (docs/EVENTS.md "Data another service owns"). Each is a "set the full value" fact keyed by server id on a history topic, so the
 * reader's read model is the last value per server, whenever the reader was deployed.
 *
 * - `logs.server-counts` v1 (logs service, TOPICS.logCounts): the server's stored text and photo logs and
 *   its per-day counts over the last LOG_COUNT_DAYS UTC days, published at most once a minute per server
 *   whose logs changed (stored, deleted, evicted, expired).
 * - `logs.server-counts-live` v1 (logs service, TOPICS.logCountsLive, a stream the bus does not keep): the
 *   same figures every few seconds per server whose logs changed, so readers are seconds behind, not a
 *   minute. A reader keeps the fact with the latest countedAt of either event.
 * - `backup.catalog-changed` v1 (backups service, TOPICS.backups): the server's stored backups with their
 *   sizes, published when a backup completes and when one is removed (deleted or rotated out). An empty
 *   list says the server has none.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { TOPICS } from '../topics.ts';
import { defineEvent } from './framework.ts';

/** Days a logs.server-counts fact covers, today (UTC) included: the admin dashboard's 7-day series. */
export const LOG_COUNT_DAYS = 7;

const ServerId = Type.String({ minLength: 1, maxLength: 64 });
const Count = Type.Integer({ minimum: 0 });

export const LogsServerCountsSchema = Type.Object(
  {
    serverId: ServerId,
    /** Text logs stored now. */
    logs: Count,
    /** Photo logs stored now. */
    photoLogs: Count,
    /** Stored logs per UTC day (`YYYY-MM-DD`), only days of the window that have any, oldest first. */
    days: Type.Array(
      Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), logs: Count, photoLogs: Count }, { additionalProperties: false }),
      { maxItems: LOG_COUNT_DAYS },
    ),
    /** ISO 8601 time the figures were read. */
    countedAt: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);
export type LogsServerCounts = Static<typeof LogsServerCountsSchema>;

export const LogsServerCountsEvent = defineEvent({ name: 'logs.server-counts', version: 1, topic: TOPICS.logCounts, schema: LogsServerCountsSchema });

export const LogsServerCountsLiveEvent = defineEvent({ name: 'logs.server-counts-live', version: 1, topic: TOPICS.logCountsLive, schema: LogsServerCountsSchema });

/** Upper bound of one catalog: far above any tier's maxBackups (rotation removes the oldest past it). */
export const MAX_BACKUP_CATALOG = 1000;

export const BackupCatalogChangedSchema = Type.Object(
  {
    serverId: ServerId,
    /** Every completed backup the server stores now (failed and running ones are not backups yet). */
    backups: Type.Array(
      Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 64 }),
          /** Bytes of the SQL as downloaded (the size the owner's list shows). */
          size: Count,
          /** ISO 8601 completion time. */
          createdAt: Type.String({ minLength: 1, maxLength: 40 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_BACKUP_CATALOG },
    ),
  },
  { additionalProperties: false },
);
export type BackupCatalogChanged = Static<typeof BackupCatalogChangedSchema>;

export const BackupCatalogChangedEvent = defineEvent({ name: 'backup.catalog-changed', version: 1, topic: TOPICS.backups, schema: BackupCatalogChangedSchema });
