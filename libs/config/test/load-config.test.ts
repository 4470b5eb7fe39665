import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/index.ts';

const distributedBase = {
  JWT_PUBLIC_KEY_FILE: '/keys/public.pem',
  SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
};

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** The path of a configuration file in a folder of its own, removed after the file's tests. */
function configFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skald-config-'));
  tempDirs.push(dir);
  return join(dir, 'config.json');
}

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig validation messages', () => {
  it('names the variable, the expectation and the value for a bad PORT', () => {
    expect(errorOf({ PORT: 'abc' })).toBe('Invalid configuration: PORT must be an integer between 0 and 65535 (0: any free port) (got "abc")');
    expect(errorOf({ PORT: '70000' })).toBe('Invalid configuration: PORT must be an integer between 0 and 65535 (0: any free port) (got "70000")');
  });

  it('refuses numbers that lenient coercion would accept', () => {
    for (const port of ['1.5', '0x10', '1e3', '-1']) {
      expect(errorOf({ PORT: port })).toContain('PORT must be an integer');
    }
  });

  it('lists the allowed values of an enumeration', () => {
    expect(errorOf({ TARGET: 'everything' })).toBe(
      'Invalid configuration: TARGET must be one of all, gateway, auth, ingestion, logs, webhooks, backups, billing, admin (got "everything")',
    );
    expect(errorOf({ EVENT_BUS: 'rabbit' })).toContain('EVENT_BUS must be one of memory, redis, kafka');
  });

  it('checks URLs, booleans and keys', () => {
    expect(errorOf({ PUBLIC_URL: 'skald.example' })).toContain('PUBLIC_URL must be an http(s) URL');
    expect(errorOf({ S3_USE_SSL: 'yes' })).toContain('S3_USE_SSL must be true or false');
    expect(errorOf({ SECRETS_KEY: 'short' })).toContain('SECRETS_KEY must be a base64 encoded 32-byte key');
    expect(errorOf({ CORS_ORIGINS: 'https://a.example,not an origin' })).toContain('CORS_ORIGINS must be a comma-separated list');
  });

  it('requires the connection settings of the chosen adapters', () => {
    expect(errorOf({ EVENT_BUS: 'redis' })).toBe('Invalid configuration: REDIS_URL is required when EVENT_BUS=redis');
    expect(errorOf({ LOG_STORE: 'mongo' })).toBe('Invalid configuration: MONGO_URL is required when LOG_STORE=mongo');
    expect(errorOf({ OBJECT_STORE: 'minio' })).toContain('S3_ENDPOINT is required when OBJECT_STORE=minio');
    expect(errorOf({ MAILER: 'smtp' })).toContain('SMTP_URL is required when MAILER=smtp');
  });

  it('requires shared keys for a single distributed service, the private key only for auth', () => {
    const env = { TARGET: 'logs', EVENT_BUS: 'redis', REDIS_URL: 'redis://127.0.0.1:6379', DOC_STORE: 'sqlite', LOG_STORE: 'sqlite', OBJECT_STORE: 'fs', JOB_QUEUE: 'embedded', COUNTERS: 'redis', MAILER: 'outbox' };
    expect(errorOf(env)).toContain('JWT_PUBLIC_KEY_FILE is required');
    expect(loadConfig({ ...env, ...distributedBase }).port).toBe(8083);
    expect(errorOf({ ...env, ...distributedBase, TARGET: 'auth' })).toContain('JWT_PRIVATE_KEY_FILE is required when TARGET=auth');
  });
});

describe('loadConfig defaults', () => {
  it('all-in-one picks the embedded adapters and port 8080', () => {
    const config = loadConfig({});
    expect(config.target).toBe('all');
    expect(config.mode).toBe('all-in-one');
    expect(config.port).toBe(8080);
    expect(config.adapters).toEqual({ eventBus: 'memory', docStore: 'sqlite', logStore: 'sqlite', logLayout: 'blocks', objectStore: 'fs', jobQueue: 'embedded', counters: 'memory', mailer: 'outbox' });
    expect(config.requestTimeoutMs).toBeGreaterThan(0);
    expect(config.bodyLimitBytes).toBe(1_048_576);
  });

  it('distributed picks the real adapters, any of them overridable', () => {
    const config = loadConfig({
      ...distributedBase,
      TARGET: 'ingestion',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      MONGO_URL: 'mongodb://m:27017',
      REDIS_URL: 'redis://r:6379',
      S3_ENDPOINT: 'minio',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      SMTP_URL: 'smtp://mail:25',
      OBJECT_STORE: 'fs',
    });
    expect(config.mode).toBe('distributed');
    expect(config.port).toBe(8082);
    expect(config.adapters).toEqual({ eventBus: 'kafka', docStore: 'mongo', logStore: 'mongo', logLayout: 'blocks', objectStore: 'fs', jobQueue: 'bullmq', counters: 'redis', mailer: 'smtp' });
    expect(config.kafka?.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(config.kafka?.fetchMaxWaitMs).toBeUndefined();
  });

  it('selects the embedded log store\'s block layout with LOG_LAYOUT, blocks by default, and refuses another value', () => {
    expect(loadConfig({}).adapters.logLayout).toBe('blocks');
    expect(loadConfig({ LOG_LAYOUT: 'blocks' }).adapters.logLayout).toBe('blocks');
    expect(loadConfig({ LOG_LAYOUT: 'rows' }).adapters.logLayout).toBe('rows');
    expect(errorOf({ LOG_LAYOUT: 'columns' })).toContain('LOG_LAYOUT must be');
  });

  it('takes the Kafka consumer fetch wait within its bounds, and says what it expects otherwise', () => {
    const kafkaBase = { ...distributedBase, TARGET: 'logs', KAFKA_BROKERS: 'k1:9092', MONGO_URL: 'mongodb://m:27017', REDIS_URL: 'redis://r:6379', OBJECT_STORE: 'fs', SMTP_URL: 'smtp://mail:25' };
    expect(loadConfig({ ...kafkaBase, KAFKA_FETCH_MAX_WAIT_MS: '200' }).kafka?.fetchMaxWaitMs).toBe(200);
    expect(errorOf({ ...kafkaBase, KAFKA_FETCH_MAX_WAIT_MS: '0' })).toBe(
      'Invalid configuration: KAFKA_FETCH_MAX_WAIT_MS must be an integer between 10 and 30000 (milliseconds) (got "0")',
    );
  });

  it('the gateway needs no adapter settings and defaults its upstreams', () => {
    const config = loadConfig({ TARGET: 'gateway', SERVICE_URL_AUTH: 'http://auth:8081/' });
    expect(config.serviceUrls.auth).toBe('http://auth:8081');
    expect(config.serviceUrls.logs).toBe('http://127.0.0.1:8083');
  });

  it('reads SKALD_CONFIG_FILE, with the environment taking precedence', () => {
    const file = configFile();
    writeFileSync(file, JSON.stringify({ PORT: 9000, LOG_LEVEL: 'debug', CORS_ORIGINS: 'https://a.example' }));
    const config = loadConfig({ SKALD_CONFIG_FILE: file, LOG_LEVEL: 'warn' });
    expect(config.port).toBe(9000);
    expect(config.logLevel).toBe('warn');
    expect(config.corsOrigins).toEqual(['https://a.example']);
    writeFileSync(file, JSON.stringify({ PORTT: 1 }));
    expect(errorOf({ SKALD_CONFIG_FILE: file })).toContain('unknown variable PORTT');
    writeFileSync(file, JSON.stringify({ PORT: 'x' }));
    expect(errorOf({ SKALD_CONFIG_FILE: file })).toContain('PORT must be an integer');
  });
});

describe('PUBLIC_URL (the base of links in mails)', () => {
  it('defaults to the address the all-in-one and the gateway listen on, 0.0.0.0 and :: read as localhost', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '9191' }).publicUrl).toBe('http://localhost:9191');
    expect(loadConfig({ PORT: '9191', HOST: '::' }).publicUrl).toBe('http://localhost:9191');
    expect(loadConfig({ HOST: '192.168.1.20', PORT: '3000' }).publicUrl).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ HOST: '::1', PORT: '3000' }).publicUrl).toBe('http://[::1]:3000');
    expect(loadConfig({ TARGET: 'gateway', PORT: '9292' }).publicUrl).toBe('http://localhost:9292');
  });

  it('a single service is reached through the gateway, so its default is the gateway default, not its own port', () => {
    const env = { ...distributedBase, TARGET: 'logs', EVENT_BUS: 'memory', DOC_STORE: 'sqlite', LOG_STORE: 'sqlite', OBJECT_STORE: 'fs', JOB_QUEUE: 'embedded', COUNTERS: 'memory', MAILER: 'outbox' };
    expect(loadConfig(env).publicUrl).toBe('http://localhost:8080');
  });

  it('the value given wins, without its trailing slash, and brings no warning', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://logs.example.com/', PORT: '9191', NODE_ENV: 'production' });
    expect(config.publicUrl).toBe('https://logs.example.com');
    expect(config.startupWarnings).toEqual([]);
  });

  it('warns once when it is unset in production or outside the all-in-one, not on a local all-in-one', () => {
    expect(loadConfig({ PORT: '9191' }).startupWarnings).toEqual([]);
    const production = loadConfig({ PORT: '9191', NODE_ENV: 'production' }).startupWarnings;
    expect(production).toHaveLength(1);
    expect(production[0]).toContain('PUBLIC_URL is not set');
    expect(production[0]).toContain('http://localhost:9191');
    expect(loadConfig({ TARGET: 'gateway' }).startupWarnings).toHaveLength(1);
  });

  it('PORT=0 takes any free port, so an unset PUBLIC_URL is a guess that cannot name it: a warning', () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1' });
    expect(config.port).toBe(0);
    expect(config.startupWarnings).toHaveLength(1);
    expect(config.startupWarnings[0]).toContain('PUBLIC_URL is not set');
    expect(loadConfig({ PORT: '0', PUBLIC_URL: 'http://127.0.0.1:9000' }).startupWarnings).toEqual([]);
  });
});

describe('INSECURE_TEST_PASSWORD_HASHING', () => {
  it('is off by default and when false: OWASP cost, no warning', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:9000' }).passwordHashing).toBe('owasp');
    const off = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:9000', NODE_ENV: 'test', INSECURE_TEST_PASSWORD_HASHING: 'false' });
    expect(off.passwordHashing).toBe('owasp');
    expect(off.startupWarnings).toEqual([]);
  });

  it('is refused outside NODE_ENV=test, naming the variable and what NODE_ENV was', () => {
    expect(errorOf({ INSECURE_TEST_PASSWORD_HASHING: 'true', NODE_ENV: 'production' })).toBe(
      'Invalid configuration: INSECURE_TEST_PASSWORD_HASHING=true is only allowed when NODE_ENV=test (got NODE_ENV="production"): it hashes passwords far below OWASP\'s cost',
    );
    expect(errorOf({ INSECURE_TEST_PASSWORD_HASHING: 'true' })).toContain('(got NODE_ENV unset)');
    for (const nodeEnv of ['development', 'TEST', 'test ']) {
      expect(errorOf({ INSECURE_TEST_PASSWORD_HASHING: 'true', NODE_ENV: nodeEnv })).toContain('only allowed when NODE_ENV=test');
    }
    // From the configuration file as from the environment.
    const file = configFile();
    writeFileSync(file, JSON.stringify({ INSECURE_TEST_PASSWORD_HASHING: true }));
    expect(errorOf({ SKALD_CONFIG_FILE: file, NODE_ENV: 'production' })).toContain('only allowed when NODE_ENV=test');
  });

  it('with NODE_ENV=test gives the test cost and one start-up warning', () => {
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:9000', NODE_ENV: 'test', INSECURE_TEST_PASSWORD_HASHING: 'true' });
    expect(config.passwordHashing).toBe('test');
    expect(config.startupWarnings).toHaveLength(1);
    expect(config.startupWarnings[0]).toContain('INSECURE_TEST_PASSWORD_HASHING is on');
  });

  it('accepts only true or false', () => {
    expect(errorOf({ INSECURE_TEST_PASSWORD_HASHING: 'yes', NODE_ENV: 'test' })).toBe(
      'Invalid configuration: INSECURE_TEST_PASSWORD_HASHING must be true or false (got "yes")',
    );
  });
});
