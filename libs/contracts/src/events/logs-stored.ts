/**
 * `logs.batch-stored` v1 (logs service, TOPICS.logsStored, keyed by server id): a logs replica stored
 * (committed to the log store) the text logs of one `logs.batch-accepted` message. Live tails on every
 * logs replica observe both topics and send a batch's logs once its notice says they are stored
 * (docs/EVENTS.md "Live tail across replicas"). Published after every successful store,
 * redeliveries included, so a crash between the insert and the notice cannot hold a batch back.
 * Batches without text logs (a photo log) get none: the tail streams text logs only.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { TOPICS } from '../topics.ts';
import { defineEvent } from './framework.ts';

const EpochMs = Type.Integer({ minimum: 0 });

export const LogsBatchStoredSchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    /** The envelope id of the `logs.batch-accepted` event whose logs were stored. */
    batchId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Text logs of the batch. */
    count: Type.Integer({ minimum: 1 }),
    /** The smallest and largest createdAt among them: a tail that never saw the batch reads this window of the store. */
    fromTime: EpochMs,
    toTime: EpochMs,
  },
  { additionalProperties: false },
);
export type LogsBatchStored = Static<typeof LogsBatchStoredSchema>;

export const LogsBatchStoredEvent = defineEvent({ name: 'logs.batch-stored', version: 1, topic: TOPICS.logsStored, schema: LogsBatchStoredSchema });
