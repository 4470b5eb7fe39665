/**
 * THE list of Skald's distributed processes and the settings each one is started with. Two readers:
 *   - deploy/check-manifests.mjs: docker-compose.yml and deploy/k8s/base must run exactly these
 *     processes, on these ports, and give each every setting named here for it (and the settings named
 *     for one process to no other);
 *   - test/all-processes.integration.test.ts: starts exactly these processes on this machine, with a value for every
 *     setting named here (it refuses to start a process otherwise), so what the test proves is what
 *     operators deploy. Only values differ: the test's stand-ins (SQLite, the file system, a local Stripe
 *     and receiver, ports of its own) are listed in the test.
 * Plain TypeScript without runtime imports: the checker (a .mjs file) loads it with Node's type stripping.
 */
import type { EnvName, Target } from '@skald/config';

export type BusKind = 'kafka' | 'redis';

export interface SkaldProcessSpec {
  /** TARGET; also the compose container, the Kubernetes Deployment and Service name. */
  readonly target: Exclude<Target, 'all'>;
  /** PORT in the manifests (the test picks free ports). */
  readonly port: number;
  /** Settings this process needs beyond the common ones; no other process gets them. */
  readonly own: readonly EnvName[];
}

/** Every process, the gateway included: what it is, where it listens, where its metrics are, its scratch folder, its public address. */
export const EVERY_PROCESS_SETTINGS: readonly EnvName[] = ['TARGET', 'PORT', 'METRICS_PORT', 'DATA_DIR', 'PUBLIC_URL'];

/**
 * Every service process (not the gateway): the adapter choice, Redis (BullMQ and counters), the key that
 * verifies access tokens and the key that seals secrets at rest.
 */
export const SERVICE_SETTINGS: readonly EnvName[] = [
  'EVENT_BUS', 'DOC_STORE', 'LOG_STORE', 'OBJECT_STORE', 'JOB_QUEUE', 'COUNTERS', 'MAILER',
  'REDIS_URL', 'JWT_PUBLIC_KEY_FILE', 'SECRETS_KEY',
];

/** Where the chosen event bus is. */
export const BUS_SETTINGS: Readonly<Record<BusKind, readonly EnvName[]>> = {
  kafka: ['KAFKA_BROKERS'],
  redis: ['REDIS_URL'],
};

/** The adapters every service runs on in the distributed form, in the manifests and in the test alike. */
export const SHARED_REDIS_ADAPTERS = { JOB_QUEUE: 'bullmq', COUNTERS: 'redis' } as const;

const STRIPE_PRICES: readonly EnvName[] = [
  'STRIPE_PRICE_LITE', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_EXPLORER', 'STRIPE_PRICE_VOYAGER',
  'STRIPE_PRICE_PIONEER', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_LEGEND',
];

/** The seven services, in the order of their ports. */
const SERVICES: readonly SkaldProcessSpec[] = [
  // Only auth signs access tokens.
  { target: 'auth', port: 8081, own: ['JWT_PRIVATE_KEY_FILE'] },
  { target: 'ingestion', port: 8082, own: [] },
  { target: 'logs', port: 8083, own: [] },
  // Receivers a tenant typed go through the outbound guard; private ones must be listed (docs/WEBHOOKS.md).
  { target: 'webhooks', port: 8084, own: ['OUTBOUND_ALLOWED_HOSTS', 'WEBHOOK_MAX_ATTEMPTS', 'WEBHOOK_RETRY_BASE_MS'] },
  // A game database on a private network must be listed (docs/BACKUPS.md).
  { target: 'backups', port: 8085, own: ['OUTBOUND_ALLOWED_HOSTS'] },
  { target: 'billing', port: 8086, own: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', ...STRIPE_PRICES] },
  { target: 'admin', port: 8087, own: [] },
];

/** The variable naming where the gateway reaches a service. */
export function serviceUrlSetting(target: SkaldProcessSpec['target']): EnvName {
  return `SERVICE_URL_${target.toUpperCase()}` as EnvName;
}

export const SKALD_PROCESSES: readonly SkaldProcessSpec[] = [
  { target: 'gateway', port: 8080, own: SERVICES.map((service) => serviceUrlSetting(service.target)) },
  ...SERVICES,
];

/** Every setting a process must be started with on the given bus. */
export function requiredSettings(spec: SkaldProcessSpec, bus: BusKind): EnvName[] {
  const service = spec.target === 'gateway' ? [] : [...SERVICE_SETTINGS, ...BUS_SETTINGS[bus]];
  return [...new Set([...EVERY_PROCESS_SETTINGS, ...service, ...spec.own])];
}

/** Settings named for some processes only, with the processes that may have them. */
export function ownedSettings(): Map<EnvName, Set<string>> {
  const owners = new Map<EnvName, Set<string>>();
  for (const spec of SKALD_PROCESSES) {
    for (const name of spec.own) owners.set(name, (owners.get(name) ?? new Set()).add(spec.target));
  }
  return owners;
}
