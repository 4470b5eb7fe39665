/**
 * Every bus topic in one place. Topic names carry the stream's major version; each message
 * also carries its event name and version (header `event-type`, e.g. `server.created.v1`).
 * Partition key: the server id where the event concerns a server, else the user id.
 */
export const TOPICS = {
  /** Users, sessions, servers, API keys, memberships, site roles (auth service). */
  identity: 'skald.identity.v1',
  /** Batches of accepted logs and photo logs (ingestion -> logs, webhooks). */
  logsIngested: 'skald.logs.ingested.v1',
  /** Audit entries: who did what on which server (every service -> audit store). */
  audit: 'skald.audit.v1',
  /** Tier and subscription changes (billing -> everyone). */
  billing: 'skald.billing.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const ALL_TOPICS: readonly TopicName[] = Object.values(TOPICS);
