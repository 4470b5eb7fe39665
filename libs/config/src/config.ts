/** The typed configuration a Skald process runs with (see load-config.ts for where each value comes from). */
import type { Target } from './env-schema.ts';

export type { Target } from './env-schema.ts';

/** Services that run behind the gateway (same list as ServiceName in @skald/service-kit). */
export const SERVICES = ['auth', 'ingestion', 'logs', 'webhooks', 'backups', 'billing', 'admin'] as const;
export type ServiceKey = (typeof SERVICES)[number];

/** Default METRICS_PORT: the port Prometheus's exporter registry gives OpenTelemetry's exporter. */
export const DEFAULT_METRICS_PORT = 9464;

/** Default port of each process in distributed mode (TARGET=<service>); all-in-one and gateway use 8080. */
export const DEFAULT_PORTS: Readonly<Record<Target, number>> = {
  all: 8080,
  gateway: 8080,
  auth: 8081,
  ingestion: 8082,
  logs: 8083,
  webhooks: 8084,
  backups: 8085,
  billing: 8086,
  admin: 8087,
};

export interface AdapterChoice {
  readonly eventBus: 'memory' | 'redis' | 'kafka';
  readonly docStore: 'sqlite' | 'mongo';
  readonly logStore: 'sqlite' | 'mongo';
  /** The embedded log store's layout (LOG_LAYOUT); the MongoDB one has a single layout. */
  readonly logLayout: 'rows' | 'blocks';
  readonly objectStore: 'fs' | 'minio';
  readonly jobQueue: 'embedded' | 'bullmq';
  readonly counters: 'memory' | 'redis';
  readonly mailer: 'outbox' | 'smtp';
}

export interface S3Settings {
  readonly endPoint: string;
  readonly port: number;
  readonly useSSL: boolean;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  readonly region?: string;
}

export interface JwtSettings {
  /** PEM file of the Ed25519 private key (auth service only). Unset in all-in-one: generated under DATA_DIR/keys. */
  readonly privateKeyFile?: string;
  readonly publicKeyFile?: string;
  readonly issuer: string;
  readonly audience: string;
}

export interface SkaldConfig {
  readonly target: Target;
  /** all-in-one when TARGET=all, else distributed. */
  readonly mode: 'all-in-one' | 'distributed';
  readonly host: string;
  readonly port: number;
  /** METRICS_PORT: where GET /metrics answers (default 9464, the Prometheus exporters' port). */
  readonly metricsPort: number;
  /** Absolute path. */
  readonly dataDir: string;
  /** Public base URL without a trailing slash (PUBLIC_URL, else guessed from the listen address: public-url.ts). */
  readonly publicUrl: string;
  /** Lines the launcher logs as warnings once it listens (e.g. PUBLIC_URL guessed in production). */
  readonly startupWarnings: readonly string[];
  readonly corsOrigins: readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Whole-request timeout (Fastify requestTimeout); connectionTimeout uses the same value. */
  readonly requestTimeoutMs: number;
  /** Gateway -> service proxy timeout. */
  readonly upstreamTimeoutMs: number;
  /** Grace period for in-flight work on SIGTERM before a hard exit. */
  readonly shutdownTimeoutMs: number;
  /** Default JSON body limit; the gateway raises it for the ingestion routes only. */
  readonly bodyLimitBytes: number;
  readonly adapters: AdapterChoice;
  readonly redis?: { readonly url: string; readonly prefix: string };
  readonly kafka?: {
    readonly brokers: readonly string[];
    readonly clientId: string;
    readonly replicationFactor?: number;
    readonly topicProvisioning?: 'admin' | 'external';
    readonly sessionTimeoutMs?: number;
    readonly fetchMaxWaitMs?: number;
  };
  readonly mongoUrl?: string;
  readonly s3?: S3Settings;
  readonly smtpUrl?: string;
  readonly mailFrom: string;
  readonly jwt: JwtSettings;
  /** Base64 32-byte key. Unset in all-in-one: generated under DATA_DIR/keys. */
  readonly secretsKey?: string;
  /** OUTBOUND_ALLOWED_HOSTS, split: private destinations webhooks and backups may reach (empty: none). */
  readonly outboundAllowedHosts: readonly string[];
  /** WEBHOOK_MAX_ATTEMPTS and WEBHOOK_RETRY_BASE_MS (the webhooks service's retry schedule). */
  readonly webhookDelivery: WebhookDeliverySettings;
  /** ALERT_MIN_WINDOW_SECONDS (the webhooks service's alert rules); default 60. */
  readonly alerts: { readonly minWindowSeconds: number };
  /** Upstream base URLs for the gateway in distributed mode. */
  readonly serviceUrls: Readonly<Record<ServiceKey, string>>;
  /** SUPPORT_EMAIL: shown on the public pages (the gateway's GET /api/public-config); absent when unset. */
  readonly supportEmail?: string;
  /**
   * The auth service's scrypt cost: 'owasp' (N=2^17) unless INSECURE_TEST_PASSWORD_HASHING=true in a
   * NODE_ENV=test process, then 'test' (N=2^10).
   */
  readonly passwordHashing: 'owasp' | 'test';
  /** Present when STRIPE_SECRET_KEY is set (the billing service's payments); absent: payments answer 503. */
  readonly stripe?: StripeSettings;
}

export interface WebhookDeliverySettings {
  /** Default 6. */
  readonly maxAttempts: number;
  /** Default 5000. */
  readonly retryBaseMs: number;
}

export interface StripeSettings {
  readonly secretKey: string;
  readonly webhookSecret?: string;
  /** STRIPE_API_BASE: another Stripe-compatible host. */
  readonly apiBase?: string;
  /** STRIPE_WEBHOOK_TOLERANCE_SECONDS; default 300. */
  readonly webhookToleranceSeconds: number;
  /** STRIPE_PRICE_<TIER> per paid tier key (lower case), only those set. */
  readonly prices: Readonly<Record<string, string>>;
}
