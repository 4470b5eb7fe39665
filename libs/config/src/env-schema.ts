/**
 * The environment variables every Skald process reads, as ONE TypeBox schema.
 * Each property carries a `description` phrased to complete "X must be ..." so a validation
 * failure can name the variable and say what was expected.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

export const TARGETS = ['all', 'gateway', 'auth', 'ingestion', 'logs', 'webhooks', 'backups', 'billing', 'admin'] as const;
export type Target = (typeof TARGETS)[number];

function oneOf<const V extends string[]>(values: readonly [...V]) {
  return Type.Enum(values, { description: `one of ${values.join(', ')}` });
}

const port = Type.Integer({ minimum: 1, maximum: 65535, description: 'an integer between 1 and 65535' });
/**
 * A port this process listens on: 0 takes any free port and the process logs the one it bound (the HTTP
 * listener's "listening on <address>" line), so tests bind without guessing a free port first.
 */
const listenPort = Type.Integer({ minimum: 0, maximum: 65535, description: 'an integer between 0 and 65535 (0: any free port)' });
const httpUrl = Type.String({ pattern: '^https?://[^\\s]+$', description: 'an http(s) URL' });
const nonEmpty = Type.String({ minLength: 1, description: 'a non-empty string' });
const bool = Type.Boolean({ description: 'true or false' });

export const EnvSchema = Type.Object({
  TARGET: Type.Optional(oneOf(TARGETS)),
  PORT: Type.Optional(listenPort),
  HOST: Type.Optional(nonEmpty),
  /** Port of the process's Prometheus listener (GET /metrics), never the HTTP port; 0 picks a free one. */
  METRICS_PORT: Type.Optional(listenPort),
  DATA_DIR: Type.Optional(nonEmpty),
  PUBLIC_URL: Type.Optional(httpUrl),
  CORS_ORIGINS: Type.Optional(
    Type.String({ pattern: '^(https?://[^\\s,]+)?(,\\s*https?://[^\\s,]+)*$', description: 'a comma-separated list of http(s) origins' }),
  ),
  EVENT_BUS: Type.Optional(oneOf(['memory', 'redis', 'kafka'] as const)),
  DOC_STORE: Type.Optional(oneOf(['sqlite', 'mongo'] as const)),
  LOG_STORE: Type.Optional(oneOf(['sqlite', 'mongo'] as const)),
  /** How the embedded log store lays logs out: rows (the default) or compressed blocks (docs/STORAGE.md). */
  LOG_LAYOUT: Type.Optional(oneOf(['rows', 'blocks'] as const)),
  OBJECT_STORE: Type.Optional(oneOf(['fs', 'minio'] as const)),
  JOB_QUEUE: Type.Optional(oneOf(['embedded', 'bullmq'] as const)),
  COUNTERS: Type.Optional(oneOf(['memory', 'redis'] as const)),
  MAILER: Type.Optional(oneOf(['outbox', 'smtp'] as const)),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://[^\\s]+$', description: 'a redis:// or rediss:// URL' })),
  REDIS_PREFIX: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9:_-]{1,64}$', description: 'letters, digits, ":", "_" or "-" (at most 64)' })),
  KAFKA_BROKERS: Type.Optional(
    Type.String({ pattern: '^[^\\s,:]+:[0-9]+(,\\s*[^\\s,:]+:[0-9]+)*$', description: 'a comma-separated list of host:port' }),
  ),
  KAFKA_CLIENT_ID: Type.Optional(nonEmpty),
  KAFKA_REPLICATION_FACTOR: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'an integer between 1 and 7' })),
  /** admin (default): Skald creates its topics; external: the operator does, Skald only checks them. */
  KAFKA_TOPIC_PROVISIONING: Type.Optional(oneOf(['admin', 'external'] as const)),
  /** How long a silent (killed) consumer keeps its partitions before the group hands them over. */
  KAFKA_SESSION_TIMEOUT_MS: Type.Optional(
    Type.Integer({ minimum: 6_000, maximum: 300_000, description: 'an integer between 6000 and 300000 (milliseconds)' }),
  ),
  /** How long a consumer's fetch waits at the broker when nothing new is there (kafkajs's maxWaitTimeInMs). */
  KAFKA_FETCH_MAX_WAIT_MS: Type.Optional(
    Type.Integer({ minimum: 10, maximum: 30_000, description: 'an integer between 10 and 30000 (milliseconds)' }),
  ),
  MONGO_URL: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://[^\\s]+$', description: 'a mongodb:// URL' })),
  S3_ENDPOINT: Type.Optional(nonEmpty),
  S3_PORT: Type.Optional(port),
  S3_USE_SSL: Type.Optional(bool),
  S3_ACCESS_KEY: Type.Optional(nonEmpty),
  S3_SECRET_KEY: Type.Optional(nonEmpty),
  S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'a valid S3 bucket name' })),
  S3_REGION: Type.Optional(nonEmpty),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://[^\\s]+$', description: 'an smtp:// or smtps:// URL' })),
  MAIL_FROM: Type.Optional(nonEmpty),
  JWT_PRIVATE_KEY_FILE: Type.Optional(nonEmpty),
  JWT_PUBLIC_KEY_FILE: Type.Optional(nonEmpty),
  JWT_ISSUER: Type.Optional(nonEmpty),
  JWT_AUDIENCE: Type.Optional(nonEmpty),
  SECRETS_KEY: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$', description: 'a base64 encoded 32-byte key (44 characters)' }),
  ),
  SERVICE_URL_AUTH: Type.Optional(httpUrl),
  SERVICE_URL_INGESTION: Type.Optional(httpUrl),
  SERVICE_URL_LOGS: Type.Optional(httpUrl),
  SERVICE_URL_WEBHOOKS: Type.Optional(httpUrl),
  SERVICE_URL_BACKUPS: Type.Optional(httpUrl),
  SERVICE_URL_BILLING: Type.Optional(httpUrl),
  SERVICE_URL_ADMIN: Type.Optional(httpUrl),
  LOG_LEVEL: Type.Optional(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const)),
  REQUEST_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1000, maximum: 600000, description: 'an integer between 1000 and 600000' })),
  UPSTREAM_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 600000, description: 'an integer between 100 and 600000' })),
  SHUTDOWN_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 100, maximum: 600000, description: 'an integer between 100 and 600000' })),
  BODY_LIMIT_BYTES: Type.Optional(Type.Integer({ minimum: 1024, maximum: 104857600, description: 'an integer between 1024 and 104857600' })),
  /** Private destinations customer-configured calls may reach (webhooks, backup databases): host names, IPs, CIDRs. */
  OUTBOUND_ALLOWED_HOSTS: Type.Optional(Type.String()),
  /** The support address the public pages (privacy policy, terms) show; unset: they point to the contact form. */
  SUPPORT_EMAIL: Type.Optional(Type.String({ pattern: '^[^\\s@<>"]+@[^\\s@<>"]+\\.[^\\s@<>"]+$', maxLength: 254, description: 'an e-mail address' })),
  /** Webhook delivery attempts before a dead letter (docs/WEBHOOKS.md). */
  WEBHOOK_MAX_ATTEMPTS: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'an integer between 1 and 20' })),
  /** First webhook retry delay; each later one is 4 times longer (capped at 1 h), with ±20 % jitter. */
  WEBHOOK_RETRY_BASE_MS: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600000, description: 'an integer between 10 and 3600000' })),
  /** The shortest window an alert rule may have (docs/ALERTS.md); the product's floor is 60 s, an operator may lower it. */
  ALERT_MIN_WINDOW_SECONDS: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400, description: 'an integer between 1 and 86400' })),
  /**
   * Hashes passwords at scrypt N=2^10 instead of OWASP's 2^17 (a sign-up or login costs about 4 ms of CPU, not 0.8 s):
   * for test servers only. loadConfig refuses it unless NODE_ENV=test (docs/DECISIONS.md, "Sessions").
   */
  INSECURE_TEST_PASSWORD_HASHING: Type.Optional(bool),
  STRIPE_SECRET_KEY: Type.Optional(nonEmpty),
  STRIPE_WEBHOOK_SECRET: Type.Optional(nonEmpty),
  /** Another Stripe-compatible host for the client (stripe-mock, a local test server); default Stripe's API. */
  STRIPE_API_BASE: Type.Optional(httpUrl),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600, description: 'an integer between 10 and 3600' })),
  /** The Stripe price id of each paid tier; a tier without one cannot be bought. */
  STRIPE_PRICE_LITE: Type.Optional(nonEmpty),
  STRIPE_PRICE_STARTER: Type.Optional(nonEmpty),
  STRIPE_PRICE_EXPLORER: Type.Optional(nonEmpty),
  STRIPE_PRICE_VOYAGER: Type.Optional(nonEmpty),
  STRIPE_PRICE_PIONEER: Type.Optional(nonEmpty),
  STRIPE_PRICE_PRO: Type.Optional(nonEmpty),
  STRIPE_PRICE_LEGEND: Type.Optional(nonEmpty),
});

export type RawEnv = Static<typeof EnvSchema>;
export type EnvName = keyof RawEnv;
export const ENV_NAMES = Object.keys(EnvSchema.properties) as EnvName[];
