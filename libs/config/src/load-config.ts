/**
 * loadConfig(env): environment (plus an optional JSON file named by SKALD_CONFIG_FILE; the
 * environment wins) -> validated, typed SkaldConfig. Any invalid value throws a ConfigError
 * naming the variable, e.g. `Invalid configuration: PORT must be an integer between 0 and 65535 (0: any free port) (got "abc")`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Value from 'typebox/value';
import type { TSchema } from 'typebox';
import { ENV_NAMES, EnvSchema } from './env-schema.ts';
import type { EnvName, RawEnv, Target } from './env-schema.ts';
import { DEFAULT_METRICS_PORT, DEFAULT_PORTS, SERVICES } from './config.ts';
import { publicUrlSettings } from './public-url.ts';
import type { AdapterChoice, ServiceKey, SkaldConfig } from './config.ts';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type EnvInput = Readonly<Record<string, string | undefined>>;

function invalid(detail: string): ConfigError {
  return new ConfigError(`Invalid configuration: ${detail}`);
}

/** Values from the JSON file: keys are the variable names; numbers and booleans may be native. */
function readConfigFile(file: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw invalid(`SKALD_CONFIG_FILE could not be read as JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('SKALD_CONFIG_FILE must contain a JSON object of variable names to values');
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(ENV_NAMES as string[]).includes(key)) throw invalid(`SKALD_CONFIG_FILE has an unknown variable ${key}`);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
    else throw invalid(`${key} in SKALD_CONFIG_FILE must be a string, number or boolean`);
  }
  return out;
}

/** Collects the known variables, treating empty strings as unset (compose files often pass VAR= ). */
function collect(env: EnvInput): Record<string, string> {
  const fromFile = env.SKALD_CONFIG_FILE ? readConfigFile(env.SKALD_CONFIG_FILE) : {};
  const raw: Record<string, string> = { ...fromFile };
  for (const name of ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  return raw;
}

/**
 * Strict string -> value coercion. TypeBox's Value.Convert is too lenient for configuration
 * ("1.5" -> 1, "0x10" -> 16), so only plain decimal integers and true/false are converted;
 * anything else stays a string and fails the schema check.
 */
function coerce(type: unknown, text: string): unknown {
  if (type === 'integer' && /^-?[0-9]+$/.test(text)) return Number(text);
  if (type === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  return text;
}

/** Validates the raw strings against the schema, one variable at a time so the message names it. */
function validate(raw: Record<string, string>): RawEnv {
  const converted: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(raw)) {
    // Each property schema is a plain JSON schema; only `type` and `description` are read here.
    const schema: TSchema & { readonly type?: unknown; readonly description?: string } = EnvSchema.properties[name as EnvName];
    const value = coerce(schema.type, text);
    if (!Value.Check(schema, value)) {
      throw invalid(`${name} must be ${schema.description ?? 'valid'} (got ${JSON.stringify(text)})`);
    }
    converted[name] = value;
  }
  if (!Value.Check(EnvSchema, converted)) throw invalid('unexpected value');
  return converted;
}

function chooseAdapters(env: RawEnv, embedded: boolean): AdapterChoice {
  return {
    eventBus: env.EVENT_BUS ?? (embedded ? 'memory' : 'kafka'),
    docStore: env.DOC_STORE ?? (embedded ? 'sqlite' : 'mongo'),
    logStore: env.LOG_STORE ?? (embedded ? 'sqlite' : 'mongo'),
    logLayout: env.LOG_LAYOUT ?? 'blocks',
    objectStore: env.OBJECT_STORE ?? (embedded ? 'fs' : 'minio'),
    jobQueue: env.JOB_QUEUE ?? (embedded ? 'embedded' : 'bullmq'),
    counters: env.COUNTERS ?? (embedded ? 'memory' : 'redis'),
    mailer: env.MAILER ?? (embedded ? 'outbox' : 'smtp'),
  };
}

function required<T>(value: T | undefined, name: string, because: string): T {
  if (value === undefined) throw invalid(`${name} is required ${because}`);
  return value;
}

function splitList(text: string | undefined): string[] {
  return (text ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function serviceUrls(env: RawEnv): Record<ServiceKey, string> {
  const urls = {} as Record<ServiceKey, string>;
  for (const service of SERVICES) {
    const name = `SERVICE_URL_${service.toUpperCase()}` as EnvName;
    const given = env[name];
    urls[service] = (typeof given === 'string' ? given : `http://127.0.0.1:${DEFAULT_PORTS[service]}`).replace(/\/+$/, '');
  }
  return urls;
}

export function loadConfig(env: EnvInput = process.env): SkaldConfig {
  const raw = validate(collect(env));
  const target: Target = raw.TARGET ?? 'all';
  const embedded = target === 'all';
  // The gateway alone opens no adapters, so it needs none of their settings.
  const usesAdapters = target !== 'gateway';
  const adapters = chooseAdapters(raw, embedded);
  const dataDir = resolve(raw.DATA_DIR ?? './data');

  const needsRedis = usesAdapters && (adapters.eventBus === 'redis' || adapters.jobQueue === 'bullmq' || adapters.counters === 'redis');
  const redisReason =
    adapters.eventBus === 'redis' ? 'when EVENT_BUS=redis' : adapters.jobQueue === 'bullmq' ? 'when JOB_QUEUE=bullmq' : 'when COUNTERS=redis';
  const redis = needsRedis
    ? { url: required(raw.REDIS_URL, 'REDIS_URL', redisReason), prefix: raw.REDIS_PREFIX ?? 'skald' }
    : raw.REDIS_URL
      ? { url: raw.REDIS_URL, prefix: raw.REDIS_PREFIX ?? 'skald' }
      : undefined;

  const kafka =
    usesAdapters && adapters.eventBus === 'kafka'
      ? {
          brokers: splitList(required(raw.KAFKA_BROKERS, 'KAFKA_BROKERS', 'when EVENT_BUS=kafka')),
          clientId: raw.KAFKA_CLIENT_ID ?? `skald-${target}`,
          ...(raw.KAFKA_REPLICATION_FACTOR !== undefined ? { replicationFactor: raw.KAFKA_REPLICATION_FACTOR } : {}),
          ...(raw.KAFKA_TOPIC_PROVISIONING !== undefined ? { topicProvisioning: raw.KAFKA_TOPIC_PROVISIONING } : {}),
          ...(raw.KAFKA_SESSION_TIMEOUT_MS !== undefined ? { sessionTimeoutMs: raw.KAFKA_SESSION_TIMEOUT_MS } : {}),
          ...(raw.KAFKA_FETCH_MAX_WAIT_MS !== undefined ? { fetchMaxWaitMs: raw.KAFKA_FETCH_MAX_WAIT_MS } : {}),
        }
      : undefined;

  const needsMongo = usesAdapters && (adapters.docStore === 'mongo' || adapters.logStore === 'mongo');
  const mongoUrl = needsMongo
    ? required(raw.MONGO_URL, 'MONGO_URL', `when ${adapters.docStore === 'mongo' ? 'DOC_STORE' : 'LOG_STORE'}=mongo`)
    : raw.MONGO_URL;

  const s3 =
    usesAdapters && adapters.objectStore === 'minio'
      ? {
          endPoint: required(raw.S3_ENDPOINT, 'S3_ENDPOINT', 'when OBJECT_STORE=minio'),
          port: raw.S3_PORT ?? 9000,
          useSSL: raw.S3_USE_SSL ?? false,
          accessKey: required(raw.S3_ACCESS_KEY, 'S3_ACCESS_KEY', 'when OBJECT_STORE=minio'),
          secretKey: required(raw.S3_SECRET_KEY, 'S3_SECRET_KEY', 'when OBJECT_STORE=minio'),
          bucket: raw.S3_BUCKET ?? 'skald',
          ...(raw.S3_REGION !== undefined ? { region: raw.S3_REGION } : {}),
        }
      : undefined;

  const smtpUrl = usesAdapters && adapters.mailer === 'smtp' ? required(raw.SMTP_URL, 'SMTP_URL', 'when MAILER=smtp') : raw.SMTP_URL;

  // Distributed processes cannot generate keys: every process must verify with the same public key.
  if (!embedded && usesAdapters) {
    required(raw.JWT_PUBLIC_KEY_FILE, 'JWT_PUBLIC_KEY_FILE', 'when TARGET is a single service');
    required(raw.SECRETS_KEY, 'SECRETS_KEY', 'when TARGET is a single service');
    if (target === 'auth') required(raw.JWT_PRIVATE_KEY_FILE, 'JWT_PRIVATE_KEY_FILE', 'when TARGET=auth');
  }

  const host = raw.HOST ?? '0.0.0.0';
  const port = raw.PORT ?? DEFAULT_PORTS[target];
  // NODE_ENV is the ecosystem's switch, not a Skald variable: read as is, never validated.
  const publicUrl = publicUrlSettings({ given: raw.PUBLIC_URL, target, host, port, nodeEnv: env.NODE_ENV });

  const passwordHashing = passwordHashingOf(raw, env.NODE_ENV);
  const startupWarnings = [
    ...(publicUrl.warning === null ? [] : [publicUrl.warning]),
    ...(passwordHashing === 'test' ? [INSECURE_HASHING_WARNING] : []),
  ];

  return {
    target,
    mode: embedded ? 'all-in-one' : 'distributed',
    host,
    port,
    metricsPort: raw.METRICS_PORT ?? DEFAULT_METRICS_PORT,
    dataDir,
    publicUrl: publicUrl.url,
    startupWarnings,
    corsOrigins: splitList(raw.CORS_ORIGINS),
    logLevel: raw.LOG_LEVEL ?? 'info',
    requestTimeoutMs: raw.REQUEST_TIMEOUT_MS ?? 30_000,
    upstreamTimeoutMs: raw.UPSTREAM_TIMEOUT_MS ?? 15_000,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    bodyLimitBytes: raw.BODY_LIMIT_BYTES ?? 1_048_576,
    adapters,
    ...(redis ? { redis } : {}),
    ...(kafka ? { kafka } : {}),
    ...(mongoUrl ? { mongoUrl } : {}),
    ...(s3 ? { s3 } : {}),
    ...(smtpUrl ? { smtpUrl } : {}),
    mailFrom: raw.MAIL_FROM ?? 'Skald <no-reply@skald.local>',
    jwt: {
      ...(raw.JWT_PRIVATE_KEY_FILE ? { privateKeyFile: raw.JWT_PRIVATE_KEY_FILE } : {}),
      ...(raw.JWT_PUBLIC_KEY_FILE ? { publicKeyFile: raw.JWT_PUBLIC_KEY_FILE } : {}),
      issuer: raw.JWT_ISSUER ?? 'skald',
      audience: raw.JWT_AUDIENCE ?? 'skald-api',
    },
    ...(raw.SECRETS_KEY ? { secretsKey: raw.SECRETS_KEY } : {}),
    serviceUrls: serviceUrls(raw),
    outboundAllowedHosts: splitList(raw.OUTBOUND_ALLOWED_HOSTS),
    ...(raw.SUPPORT_EMAIL ? { supportEmail: raw.SUPPORT_EMAIL } : {}),
    webhookDelivery: { maxAttempts: raw.WEBHOOK_MAX_ATTEMPTS ?? 6, retryBaseMs: raw.WEBHOOK_RETRY_BASE_MS ?? 5_000 },
    alerts: { minWindowSeconds: raw.ALERT_MIN_WINDOW_SECONDS ?? 60 },
    passwordHashing,
    ...(raw.STRIPE_SECRET_KEY
      ? {
          stripe: {
            secretKey: raw.STRIPE_SECRET_KEY,
            ...(raw.STRIPE_WEBHOOK_SECRET ? { webhookSecret: raw.STRIPE_WEBHOOK_SECRET } : {}),
            ...(raw.STRIPE_API_BASE ? { apiBase: raw.STRIPE_API_BASE } : {}),
            webhookToleranceSeconds: raw.STRIPE_WEBHOOK_TOLERANCE_SECONDS ?? 300,
            prices: stripePrices(raw),
          },
        }
      : {}),
  };
}

const INSECURE_HASHING_WARNING =
  'INSECURE_TEST_PASSWORD_HASHING is on: passwords are hashed at scrypt N=2^10, not N=2^17; for test servers only, never for real accounts';

/**
 * A cheap password hash is only for throw-away test servers: a stolen database of such hashes gives up its
 * passwords about 128 times faster. NODE_ENV=test is the one place it may run, so a production deployment
 * that inherits the variable by mistake does not start rather than hash weakly.
 */
function passwordHashingOf(raw: RawEnv, nodeEnv: string | undefined): 'owasp' | 'test' {
  if (raw.INSECURE_TEST_PASSWORD_HASHING !== true) return 'owasp';
  if (nodeEnv !== 'test') {
    throw invalid(
      `INSECURE_TEST_PASSWORD_HASHING=true is only allowed when NODE_ENV=test (got ${nodeEnv === undefined ? 'NODE_ENV unset' : `NODE_ENV=${JSON.stringify(nodeEnv)}`}): it hashes passwords far below OWASP's cost`,
    );
  }
  return 'test';
}

/** STRIPE_PRICE_<TIER> for every paid tier that has one, keyed by the tier key. */
function stripePrices(raw: RawEnv): Record<string, string> {
  const prices: Record<string, string> = {};
  const given: Record<string, string | undefined> = {
    lite: raw.STRIPE_PRICE_LITE,
    starter: raw.STRIPE_PRICE_STARTER,
    explorer: raw.STRIPE_PRICE_EXPLORER,
    voyager: raw.STRIPE_PRICE_VOYAGER,
    pioneer: raw.STRIPE_PRICE_PIONEER,
    pro: raw.STRIPE_PRICE_PRO,
    legend: raw.STRIPE_PRICE_LEGEND,
  };
  for (const [tier, price] of Object.entries(given)) if (price) prices[tier] = price;
  return prices;
}
