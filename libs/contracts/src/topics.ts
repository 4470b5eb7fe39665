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
  /** Billing's own facts: each server's subscription (billing.subscription-changed). Tiers and suspensions are identity facts. */
  billing: 'skald.billing.v1',
  /** The logs service's per-server counts (logs.server-counts): stored text and photo logs, per-day rollups. */
  logCounts: 'skald.logs.counts.v1',
  /**
   * The same figures, fresh (logs.server-counts-live): every few seconds for each server whose logs changed,
   * so the staff area is seconds behind the logs. A stream, not kept: logCounts is the history.
   */
  logCountsLive: 'skald.logs.counts-live.v1',
  /**
   * `logs.batch-stored` notices: the logs replica that stored an accepted batch says so, so that every
   * replica's live tails send it (services/logs domain/tail/bus-feed.ts). Small, read by observers only.
   */
  logsStored: 'skald.logs.stored.v1',
  /** The backups service's facts (backup.catalog-changed): each server's stored backups and their sizes. */
  backups: 'skald.backups.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const ALL_TOPICS: readonly TopicName[] = Object.values(TOPICS);

/**
 * Topics that keep their whole history: every adapter retains their messages forever (no pruning,
 * no trimming, Kafka retention.ms=-1), so a consumer group added later replays them from the first
 * message and its read model holds every server, key, tier and membership created before it.
 *
 * The rule for a new topic: if its messages are STATE that a consumer added later needs (who exists,
 * who may do what, what was recorded), it is a history topic. Its events must then be "set the full
 * value" facts keyed by the entity they describe (not deltas such as "quota +5"), so that replaying
 * them in publish order reproduces the current state. A STREAM of work that nobody needs to replay
 * (logs.ingested: high volume, handled once) stays out, and the bus trims it once consumed.
 * - identity: users, servers, API keys, memberships, tiers, suspensions (every read model).
 * - billing: subscription facts (a server's tier and suspension are on identity).
 * - audit: the audit trail store needs every entry, including those from before it was deployed.
 * - logCounts, backups: per-server figures another service owns (the admin area's counts and sizes,
 *   docs/EVENTS.md "Data another service owns"); a reader added later starts from each server's last value.
 * logCountsLive is not: it repeats logCounts' facts every few seconds for freshness, which kept forever would
 * grow the store thirty times faster than logCounts for nothing a late reader needs.
 */
export const HISTORY_TOPICS: readonly TopicName[] = [TOPICS.identity, TOPICS.billing, TOPICS.audit, TOPICS.logCounts, TOPICS.backups];
