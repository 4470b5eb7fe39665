import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { Counters, DocumentStore, EventBus, JobQueue, LogStore, Mailer, ObjectStore, Payments, PlayerStore } from '@skald/ports';
import type { OutboundGuard } from './outbound/index.ts';

export const SERVICE_NAMES = ['auth', 'ingestion', 'logs', 'webhooks', 'backups', 'billing', 'admin'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** JWT key material. Only the auth service receives the private key. */
export interface KeyMaterial {
  readonly publicKeyPem: string;
  readonly privateKeyPem?: string;
  readonly issuer: string;
  readonly audience: string;
}

/**
 * What the launcher hands a service. Each service gets its OWN document store
 * (its own SQLite file or MongoDB database); bus, queue, counters and object store are shared infrastructure.
 */
export interface ServiceDeps {
  readonly bus: EventBus;
  readonly docs: DocumentStore;
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly jobs: JobQueue;
  readonly counters: Counters;
  readonly mailer: Mailer;
  readonly keys: KeyMaterial;
  readonly log: FastifyBaseLogger;
  /** Public base URL of the product, e.g. https://skald.example (links in mails, checkout return URLs). */
  readonly publicUrl: string;
  /** Folder for the service's own local files (embedded mode). */
  readonly dataDir: string;
  /** 32-byte key (base64) for encrypting secrets at rest (TOTP seeds, backup passwords). */
  readonly secretsKey: string;
  /**
   * The one way to reach a host a customer typed (webhook receivers, game databases): refuses private,
   * loopback and metadata addresses unless OUTBOUND_ALLOWED_HOSTS lists them (outbound/guard.ts).
   */
  readonly outbound: OutboundGuard;
  /** The webhooks service's retry schedule (WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_BASE_MS); other services get none. */
  readonly webhookDelivery?: { readonly maxAttempts: number; readonly retryBaseMs: number };
  /** The webhooks service's alert rules (ALERT_MIN_WINDOW_SECONDS); other services get none. */
  readonly alerts?: { readonly minWindowSeconds: number };
  /** The billing service's payment provider (Stripe), null or absent when not configured; other services get none. */
  readonly payments?: Payments | null;
  /**
   * The auth service's password hashing cost: 'test' only when the process was configured for tests
   * (INSECURE_TEST_PASSWORD_HASHING with NODE_ENV=test); absent or 'owasp': OWASP's. Other services get none.
   */
  readonly passwordHashing?: 'owasp' | 'test';
  /** The logs service's player store (docs/PLAYERS.md); other services get none. */
  readonly playerStore?: PlayerStore;
}

export interface ServiceModule {
  readonly name: ServiceName;
  /** Registers the service's routes with the spec's paths (no /api prefix) on an encapsulated instance. */
  routes(app: FastifyInstance): Promise<void>;
  /** Starts consumers, workers and schedules. */
  start(): Promise<void>;
  /** Stops consumers and workers after committing finished work. */
  stop(): Promise<void>;
  /** Readiness for /ready. */
  ready(): Promise<boolean>;
}

export type ServiceFactory = (deps: ServiceDeps) => Promise<ServiceModule>;
