#!/usr/bin/env node
// Static checks of the deployment files, for a machine without Docker or kubectl:
//   node deploy/check-manifests.mjs
// - every YAML file parses;
// - the Dockerfile copies every workspace manifest (npm needs them all to link @skald/*), and writes
//   Node's compile cache at build as the runtime's user into the NODE_COMPILE_CACHE the runtime reads;
// - docker-compose.yml: each Skald container's environment, interpolated from .env.example plus a
//   generated SECRETS_KEY, passes the real loadConfig for its TARGET; every container has a health
//   check; depends_on waits for healthy containers that exist; secrets and volumes are declared;
//   every variable set on a Skald container is one the configuration knows (catches typos);
// - deploy/k8s: every kustomization resource exists; each Deployment's environment (ConfigMaps + the
//   Secret template) passes loadConfig; probes, security context and resources are set; Services
//   and PodDisruptionBudgets select existing pods; the gateway's upstream URLs name existing Services;
//   the JWT key files named in the config are where the Secret is mounted; all-in-one is one replica,
//   Recreate, on a PVC;
// - Stripe: the billing process gets STRIPE_PRICE_<TIER> for every paid tier and its
//   STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET from a Secret (k8s) or the .env (compose), never written
//   into the files; no other process gets any STRIPE_* variable;
// - metrics: every Deployment's pod is annotated for Prometheus (prometheus.io/scrape, port = the
//   container port named metrics = the METRICS_PORT its configuration loads, path /metrics); no Service
//   port and no compose published port exposes the metrics port;
// - photo memory: every process that decodes photos (ingestion, all-in-one) runs with MALLOC_ARENA_MAX=2,
//   and its Kubernetes memory limit holds its idle memory plus the documented photo bound;
// - deploy/gen-secrets.sh (run in a scratch copy) writes an Ed25519 pair that signs and verifies and a
//   SECRETS_KEY the configuration accepts;
// - processes: compose and the k8s base run exactly the processes of deploy/processes.ts (the
//   list test/all-processes.integration.test.ts starts), each on its PORT, each with every setting the list names for
//   it, a setting named for one process reaching no other, and every service's jobs and counters on Redis.
// Exits 1 listing every failure.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign, verify, createPrivateKey, createPublicKey } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { ENV_NAMES, loadConfig } from '@skald/config';
import { TIER_KEYS } from '@skald/contracts';
import { PHOTO_MEMORY_BOUND_BYTES } from '@skald/ingestion-service/testing';
import { SHARED_REDIS_ADAPTERS, SKALD_PROCESSES, ownedSettings, requiredSettings } from './processes.ts';
import { NODE_FLAGS } from '../scripts/node-flags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const failures = [];
let checks = 0;

/** Variables the runtime reads (the C library), not Skald's configuration: allowed beside ENV_NAMES. */
const RUNTIME_ENV_NAMES = ['MALLOC_ARENA_MAX'];
const isKnownEnv = (key) => ENV_NAMES.includes(key) || RUNTIME_ENV_NAMES.includes(key);

/**
 * A process's memory besides photos, with room to spare: the photo-memory benchmark measures about
 * 250 MiB idle for the all-in-one process and 160 MiB for ingestion alone (embedded adapters).
 */
const IDLE_MEMORY = { all: 320 * 1024 * 1024, ingestion: 224 * 1024 * 1024 };

/** A Kubernetes memory quantity (512Mi, 1Gi, 1536Mi, 800M) in bytes; NaN when unparseable. */
function memoryBytes(quantity) {
  const match = /^(\d+)(Ki|Mi|Gi|K|M|G)?$/.exec(String(quantity ?? ''));
  if (!match) return Number.NaN;
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 }[match[2]] ?? 1;
  return Number(match[1]) * unit;
}

/** A process that decodes photos keeps within the documented bound (docs/INGESTION.md, "Photos"), and its limit holds it. */
function checkPhotoMemory(env, limit, target, where) {
  check(env.MALLOC_ARENA_MAX === '2', `${where}: MALLOC_ARENA_MAX is not 2 (glibc's per-thread heaps let photo decodes creep past the memory bound)`);
  if (limit === undefined) return;
  const needed = IDLE_MEMORY[target] + PHOTO_MEMORY_BOUND_BYTES;
  const mib = (bytes) => Math.round(bytes / 1024 ** 2);
  check(memoryBytes(limit) >= needed, `${where}: memory limit ${limit} is below idle + photo bound (${mib(IDLE_MEMORY[target])} + ${mib(PHOTO_MEMORY_BOUND_BYTES)} MiB)`);
}

/** Stripe's settings: a price per paid tier, the two keys (secrets). */
const PAID_TIERS = TIER_KEYS.filter((key) => key !== 'free');
const STRIPE_PRICE_NAMES = PAID_TIERS.map((tier) => `STRIPE_PRICE_${tier.toUpperCase()}`);
const STRIPE_SECRET_NAMES = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];

/**
 * The billing process has every price and both keys, the keys from a secret source (`fromSecret(name)`);
 * every other process has no STRIPE_* variable at all.
 */
function checkStripeEnv(target, env, config, fromSecret, where) {
  if (target !== 'billing') {
    const stray = Object.keys(env).filter((key) => key.startsWith('STRIPE_'));
    check(stray.length === 0, `${where}: ${stray.join(', ')} must reach the billing process only`);
    return;
  }
  for (const [i, name] of STRIPE_PRICE_NAMES.entries()) {
    check(name in env, `${where}: ${name} is not set (the ${PAID_TIERS[i]} tier could not be bought)`);
    if (env[name]) check(config?.stripe?.prices?.[PAID_TIERS[i]] === env[name], `${where}: ${name} does not reach the configuration`);
  }
  for (const name of STRIPE_SECRET_NAMES) check(name in env && fromSecret(name), `${where}: ${name} does not come from a Secret`);
}

const PROCESS_TARGETS = SKALD_PROCESSES.map((spec) => spec.target).sort();
const OWNED_SETTINGS = ownedSettings();

/**
 * One process of a deployment file against deploy/processes.ts: its PORT, every setting the list names
 * for it (on Kafka, the bus both files run), no setting the list gives to other processes only, and a
 * service's jobs and counters on Redis.
 */
function checkProcessSettings(target, env, where) {
  const spec = SKALD_PROCESSES.find((candidate) => candidate.target === target);
  if (!check(spec, `${where}: ${target} is not a process of deploy/processes.ts`)) return;
  check(env.PORT === String(spec.port), `${where}: PORT ${env.PORT} is not ${spec.port} (deploy/processes.ts)`);
  const missing = requiredSettings(spec, 'kafka').filter((name) => !(name in env));
  check(missing.length === 0, `${where}: ${missing.join(', ')} not set (deploy/processes.ts names them for ${target})`);
  const stray = [...OWNED_SETTINGS].filter(([name, owners]) => !owners.has(target) && name in env).map(([name]) => name);
  check(stray.length === 0, `${where}: ${stray.join(', ')} must reach ${stray.map((name) => [...OWNED_SETTINGS.get(name)].join(' and ')).join('; ')} only`);
  if (target === 'gateway') return;
  for (const [name, value] of Object.entries(SHARED_REDIS_ADAPTERS)) check(env[name] === value, `${where}: ${name} is not ${value} (deploy/processes.ts)`);
}

function check(condition, message) {
  checks += 1;
  if (!condition) failures.push(message);
  return Boolean(condition);
}

function readYamlDocs(file) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  for (const doc of docs) {
    for (const error of doc.errors) failures.push(`${relative(root, file)}: ${error.message}`);
  }
  checks += 1;
  return docs.map((doc) => doc.toJS({ maxAliasCount: -1 })).filter((value) => value !== null && value !== undefined);
}

function listYaml(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listYaml(path));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out;
}

function tryLoadConfig(env, where) {
  try {
    return loadConfig(env);
  } catch (error) {
    failures.push(`${where}: loadConfig refused the environment: ${error.message}`);
    return undefined;
  }
}

// ---- gen-secrets.sh, in a scratch copy of the layout it expects -----------------------------------

function checkGenSecrets() {
  const scratch = mkdtempSync(join(tmpdir(), 'skald-gen-secrets-'));
  try {
    mkdirSync(join(scratch, 'deploy'));
    copyFileSync(join(root, 'deploy', 'gen-secrets.sh'), join(scratch, 'deploy', 'gen-secrets.sh'));
    copyFileSync(join(root, '.env.example'), join(scratch, '.env.example'));
    execFileSync('sh', [join(scratch, 'deploy', 'gen-secrets.sh')], { stdio: 'pipe' });
    const dir = join(scratch, 'deploy', 'secrets');
    const privatePem = readFileSync(join(dir, 'jwt-private.pem'), 'utf8');
    const publicPem = readFileSync(join(dir, 'jwt-public.pem'), 'utf8');
    const privateKey = createPrivateKey(privatePem);
    const publicKey = createPublicKey(publicPem);
    check(privateKey.asymmetricKeyType === 'ed25519', 'gen-secrets.sh: the private key is not Ed25519');
    check(privatePem.startsWith('-----BEGIN PRIVATE KEY-----'), 'gen-secrets.sh: the private key is not PKCS#8 PEM');
    check(publicPem.startsWith('-----BEGIN PUBLIC KEY-----'), 'gen-secrets.sh: the public key is not SPKI PEM');
    const data = Uint8Array.from([0x73, 0x6b, 0x61, 0x6c, 0x64]); // 'skald'
    check(verify(null, data, publicKey, sign(null, data, privateKey)), 'gen-secrets.sh: the public key does not verify the private key');
    const other = generateKeyPairSync('ed25519');
    check(!verify(null, data, other.publicKey, sign(null, data, privateKey)), 'signature check is not discriminating');
    const secretsKey = readFileSync(join(dir, 'secrets-key'), 'utf8');
    const env = readFileSync(join(scratch, '.env'), 'utf8');
    check(env.includes(`\nSECRETS_KEY=${secretsKey}\n`), 'gen-secrets.sh: .env does not carry the generated SECRETS_KEY');
    check(!/^SECRETS_KEY=$/m.test(env), 'gen-secrets.sh: .env kept an empty SECRETS_KEY line');
    const modeOf = (path) => (Number.parseInt(execFileSync('stat', ['-c', '%a', path]).toString().trim(), 8));
    check(modeOf(dir) === 0o700, 'gen-secrets.sh: deploy/secrets is not 0700');
    check(modeOf(join(scratch, '.env')) === 0o600, 'gen-secrets.sh: .env is not 0600');
    // A second run keeps the keys (replacing them would log everyone out / orphan encrypted data).
    execFileSync('sh', [join(scratch, 'deploy', 'gen-secrets.sh')], { stdio: 'pipe' });
    check(readFileSync(join(dir, 'jwt-private.pem'), 'utf8') === privatePem, 'gen-secrets.sh: a second run replaced the JWT key');
    check(readFileSync(join(dir, 'secrets-key'), 'utf8') === secretsKey, 'gen-secrets.sh: a second run replaced SECRETS_KEY');
    return { secretsKey, publicPem };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---- Dockerfile ----------------------------------------------------------------------------------

function checkDockerfile() {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  for (const pattern of workspaces) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(join(root, pattern.slice(0, -2), entry.name, 'package.json')))
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
      : [pattern];
    for (const dir of dirs) {
      check(dockerfile.includes(`COPY ${dir}/package.json ${dir}/`), `Dockerfile: the deps stage does not copy ${dir}/package.json`);
    }
  }
  check(/^USER 1000:1000$/m.test(dockerfile), 'Dockerfile: the runtime does not run as the numeric non-root user');
  const cmd = JSON.stringify(['node', ...NODE_FLAGS, 'gateway/src/main.ts']).replaceAll(',', ', ');
  check(dockerfile.includes(`CMD ${cmd}`), `Dockerfile: CMD is not ${cmd} (node, the V8 flags of scripts/node-flags.mjs, the launcher)`);
  check(/^HEALTHCHECK .*\n.*\/health/m.test(dockerfile), 'Dockerfile: no HEALTHCHECK on /health');
  check(/^EXPOSE 8080$/m.test(dockerfile), 'Dockerfile: does not EXPOSE 8080');
  check(existsSync(join(root, 'gateway', 'src', 'main.ts')), 'gateway/src/main.ts (the CMD) does not exist');
  checkCompileCacheWarmUp(dockerfile);
  checkRuntimeImports();
}

/**
 * The image starts warm: Node's compile cache is written at build into the directory the runtime reads, as the runtime's
 * user (Node keys the cache by uid: written as root, it would never be found), by the script the image copies.
 */
function checkCompileCacheWarmUp(dockerfile) {
  const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime$/m));
  const cacheEnv = /^ENV NODE_COMPILE_CACHE=(\S+)$/m.exec(runtime);
  const warmUp = runtime.search(/^RUN node scripts\/warm-compile-cache\.ts$/m);
  const user = runtime.search(/^USER 1000:1000$/m);
  const copied = runtime.search(/^COPY scripts\/warm-compile-cache\.ts scripts\/node-flags\.mjs \.\/scripts\/$/m);
  if (!check(cacheEnv !== null, 'Dockerfile: the runtime stage does not set NODE_COMPILE_CACHE')) return;
  check(warmUp >= 0, 'Dockerfile: the runtime stage does not warm the compile cache (RUN node scripts/warm-compile-cache.ts)');
  check(warmUp > runtime.indexOf(cacheEnv[0]), 'Dockerfile: the compile cache is warmed before NODE_COMPILE_CACHE is set');
  check(user >= 0 && warmUp > user, 'Dockerfile: the compile cache is not warmed as USER 1000:1000 (Node keys the cache by uid)');
  check(copied >= 0 && copied < warmUp, 'Dockerfile: scripts/warm-compile-cache.ts and node-flags.mjs (its V8 flags) are not copied before it runs');
  check(existsSync(join(root, 'scripts', 'warm-compile-cache.ts')), 'scripts/warm-compile-cache.ts (run by the Dockerfile) does not exist');
  // What the warm-up script imports from scripts/ must be in the image too (it copies nothing else of scripts/).
  const imported = [...readFileSync(join(root, 'scripts', 'warm-compile-cache.ts'), 'utf8').matchAll(/from '\.\/([\w.-]+\.ts)'/g)].map((m) => m[1]);
  for (const file of imported) {
    const at = runtime.search(new RegExp(`^COPY scripts/${file.replace(/[.]/g, '\\.')} \\./scripts/$`, 'm'));
    check(at >= 0 && at < warmUp, `Dockerfile: scripts/${file} (imported by the warm-up script) is not copied before it runs`);
  }
  check(
    new RegExp(`^RUN .*chown node:node .*${cacheEnv[1].replace(/[.]/g, '\\.')}`, 'm').test(runtime.slice(0, user)),
    `Dockerfile: ${cacheEnv[1]} is not owned by node (runs that miss add their entries there)`,
  );
}

/** The runtime stage prunes devDependencies: every package the server code imports must be a dependency. */
function checkRuntimeImports() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const production = new Set(Object.keys(manifest.dependencies ?? {}));
  const sourceDirs = ['libs', 'services'].flatMap((group) =>
    existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name, 'src')) : [],
  );
  sourceDirs.push(join(root, 'gateway', 'src'));
  const files = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(path);
    }
  };
  sourceDirs.forEach(walk);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?['"]([^'"./][^'"]*)['"]|import\(\s*['"]([^'"./][^'"]*)['"]/gm)) {
      if (match[1]) continue; // import type: erased at run time
      const specifier = match[2] ?? match[3];
      if (specifier.startsWith('node:') || specifier.startsWith('@skald/')) continue;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
      check(production.has(name), `${relative(root, file)} imports ${name}, which npm prune --omit=dev removes from the image`);
    }
  }
  check(files.length > 20, 'found no server sources to scan');
}

// ---- docker-compose.yml --------------------------------------------------------------------------

function parseDotEnv(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) out[match[1]] = match[2];
  }
  return out;
}

/** Compose interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$. */
function interpolate(value, vars, where) {
  if (typeof value !== 'string') return value;
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/g, (whole, name, op, arg) => {
    if (whole === '$$') return '$';
    const set = vars[name];
    const missing = op?.startsWith(':') ? set === undefined || set === '' : set === undefined;
    if (op?.endsWith('?') && missing) {
      failures.push(`${where}: \${${name}} is required (${arg})`);
      return '';
    }
    if (op?.endsWith('-') && missing) return arg;
    return set ?? '';
  });
}

function checkCompose(secretsKey) {
  const file = join(root, 'docker-compose.yml');
  const [compose] = readYamlDocs(file);
  const vars = { ...parseDotEnv(readFileSync(join(root, '.env.example'), 'utf8')), SECRETS_KEY: secretsKey };
  const services = compose.services ?? {};
  const skald = Object.entries(services).filter(([, s]) => s.image === 'skald:local');
  const targets = skald.map(([, s]) => s.environment?.TARGET).sort();
  check(
    JSON.stringify(targets) === JSON.stringify(PROCESS_TARGETS),
    `compose: expected one container per process of deploy/processes.ts (${PROCESS_TARGETS.join(',')}), got TARGETs ${targets.join(',')}`,
  );
  for (const name of ['kafka', 'mongo', 'redis', 'minio', 'mailpit']) check(services[name], `compose: no ${name} service`);
  check(services.redis?.command?.join(' ').includes('--maxmemory-policy noeviction'), 'compose: redis lacks noeviction');
  check(services.redis?.command?.join(' ').includes('--appendonly yes'), 'compose: redis lacks appendonly');
  check(services.kafka?.environment?.KAFKA_PROCESS_ROLES === 'broker,controller', 'compose: kafka is not a KRaft combined node');

  for (const [name, service] of Object.entries(services)) {
    check(service.healthcheck?.test, `compose: ${name} has no healthcheck`);
    for (const [dep, how] of Object.entries(service.depends_on ?? {})) {
      check(services[dep], `compose: ${name} depends on unknown ${dep}`);
      check(how?.condition === 'service_healthy', `compose: ${name} -> ${dep} is not condition service_healthy`);
    }
    for (const volume of service.volumes ?? []) {
      const source = String(volume).split(':')[0];
      if (!source.startsWith('.') && !source.startsWith('/')) check(compose.volumes && source in compose.volumes, `compose: ${name} uses undeclared volume ${source}`);
    }
    for (const secret of service.secrets ?? []) check(compose.secrets?.[secret], `compose: ${name} uses undeclared secret ${secret}`);
  }
  for (const [name, secret] of Object.entries(compose.secrets ?? {})) {
    check(/^\.\/deploy\/secrets\/jwt-(private|public)\.pem$/.test(secret.file), `compose: secret ${name} is not a file gen-secrets.sh writes`);
  }

  for (const [name, service] of skald) {
    const where = `compose ${name}`;
    const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars, where)]));
    for (const key of Object.keys(env)) check(isKnownEnv(key), `${where}: ${key} is not a Skald configuration variable`);
    checkProcessSettings(name, env, where);
    const config = tryLoadConfig(env, where);
    if (!config) continue;
    // Compose: a secret comes from the .env by reference (${VAR}), never as a value in the file.
    const fromEnvFile = (key) => /^\$\{[A-Z0-9_]+(:?-)?\}$/.test(String(service.environment[key] ?? ''));
    checkStripeEnv(name, env, config, fromEnvFile, where);
    check(config.target === name, `${where}: TARGET ${config.target} differs from the container name`);
    if (name === 'ingestion') checkPhotoMemory(env, service.mem_limit ?? service.deploy?.resources?.limits?.memory, 'ingestion', where);
    check(String(config.port) === env.PORT, `${where}: PORT not set explicitly`);
    check(!(service.ports ?? []).some((published) => String(published).split(':').at(-1) === String(config.metricsPort)), `${where}: publishes the metrics port`);
    check(service.healthcheck.test.join(' ').includes('/health'), `${where}: healthcheck does not hit /health`);
    if (name === 'gateway') {
      check(service.ports?.includes('8080:8080'), 'compose gateway: not published on 8080');
      for (const [upstream, url] of Object.entries(config.serviceUrls)) {
        const target = services[upstream];
        check(target && url === `http://${upstream}:${target.environment.PORT}`, `compose gateway: SERVICE_URL_${upstream.toUpperCase()} does not reach ${upstream}`);
      }
      continue;
    }
    check(config.mode === 'distributed' && config.adapters.eventBus === 'kafka' && config.adapters.docStore === 'mongo', `${where}: not on the real adapters`);
    check(config.kafka?.replicationFactor === 1, `${where}: the single dev broker needs KAFKA_REPLICATION_FACTOR=1`);
    check(config.jwt.publicKeyFile === '/run/secrets/jwt_public_key' && service.secrets.includes('jwt_public_key'), `${where}: public key not mounted where configured`);
    const hasPrivate = service.secrets.includes('jwt_private_key');
    check(hasPrivate === (name === 'auth'), `${where}: the private key must reach the auth service only`);
    if (name === 'auth') check(config.jwt.privateKeyFile === '/run/secrets/jwt_private_key', `${where}: private key path mismatch`);
  }
}

// ---- Kubernetes ----------------------------------------------------------------------------------

function loadKustomization(dir) {
  const [kustomization] = readYamlDocs(join(dir, 'kustomization.yaml'));
  const objects = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (!check(existsSync(path), `${relative(root, dir)}: resource ${resource} does not exist`)) continue;
    for (const doc of readYamlDocs(path)) objects.push({ ...doc, file: resource });
  }
  check(kustomization.namespace === 'skald', `${relative(root, dir)}: namespace is not skald`);
  return objects;
}

function selects(selector, labels) {
  return Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v) && Object.keys(selector ?? {}).length > 0;
}

/** The environment a container would see: envFrom ConfigMaps/Secrets in order, then env. */
function containerEnv(container, configMaps, secrets, where) {
  const env = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const data = configMaps[source.configMapRef.name];
      if (check(data, `${where}: ConfigMap ${source.configMapRef.name} does not exist`)) Object.assign(env, data);
    }
    if (source.secretRef) {
      const data = secrets[source.secretRef.name];
      if (check(data || source.secretRef.optional, `${where}: Secret ${source.secretRef.name} is not in the template`)) Object.assign(env, data ?? {});
    }
  }
  for (const item of container.env ?? []) env[item.name] = item.value;
  return env;
}

function checkPodSecurity(pod, container, where) {
  check(pod.securityContext?.runAsNonRoot === true && pod.securityContext?.runAsUser === 1000, `${where}: not runAsNonRoot as uid 1000`);
  check(container.securityContext?.readOnlyRootFilesystem === true, `${where}: root filesystem not read-only`);
  check(container.securityContext?.allowPrivilegeEscalation === false, `${where}: privilege escalation allowed`);
  check(container.securityContext?.capabilities?.drop?.includes('ALL'), `${where}: capabilities not dropped`);
  const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
  check(tmp && pod.volumes.some((v) => v.name === tmp.name && v.emptyDir), `${where}: no emptyDir at /tmp`);
  check(container.resources?.requests?.cpu && container.resources?.requests?.memory && container.resources?.limits?.memory, `${where}: resources incomplete`);
  const port = container.ports?.find((p) => p.name === 'http');
  check(port, `${where}: no port named http`);
  check(container.livenessProbe?.httpGet?.path === '/health' && container.livenessProbe.httpGet.port === 'http', `${where}: liveness is not GET /health`);
  check(container.readinessProbe?.httpGet?.path === '/ready' && container.readinessProbe.httpGet.port === 'http', `${where}: readiness is not GET /ready`);
}

/** Prometheus scraping: the pod annotations name the metrics port the process listens on; nothing exposes it. */
function checkMetricsScrape(deployment, container, config, services, where) {
  const annotations = deployment.spec.template.metadata.annotations ?? {};
  const port = container.ports?.find((p) => p.name === 'metrics');
  check(annotations['prometheus.io/scrape'] === 'true', `${where}: pod not annotated prometheus.io/scrape: "true"`);
  check(annotations['prometheus.io/path'] === '/metrics', `${where}: prometheus.io/path is not /metrics`);
  check(port?.containerPort === config.metricsPort, `${where}: no container port named metrics at METRICS_PORT ${config.metricsPort}`);
  check(annotations['prometheus.io/port'] === String(config.metricsPort), `${where}: prometheus.io/port is not METRICS_PORT ${config.metricsPort}`);
  check(config.metricsPort !== config.port, `${where}: METRICS_PORT is the HTTP port (metrics would be public)`);
  for (const service of services.filter((s) => selects(s.spec.selector, deployment.spec.template.metadata.labels))) {
    for (const servicePort of service.spec.ports ?? []) {
      check(servicePort.targetPort !== 'metrics' && servicePort.targetPort !== config.metricsPort, `${where}: Service ${service.metadata.name} exposes the metrics port`);
    }
  }
}

function checkBase(secretsKey) {
  const dir = join(root, 'deploy', 'k8s', 'base');
  const objects = loadKustomization(dir);
  const configMaps = Object.fromEntries(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data]));
  const template = readYamlDocs(join(dir, 'secret.template.yaml'));
  check(!objects.some((o) => o.kind === 'Secret'), 'k8s base: a Secret is applied with the base (placeholders would overwrite real values)');
  // The template's placeholders, filled with values of the right shape.
  const secrets = Object.fromEntries(
    template.map((s) => [s.metadata.name, Object.fromEntries(Object.entries(s.stringData).map(([k, v]) => [k, k === 'SECRETS_KEY' ? secretsKey : v]))]),
  );
  const services = objects.filter((o) => o.kind === 'Service');
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const names = deployments.map((deployment) => deployment.metadata.name).sort();
  check(
    JSON.stringify(names) === JSON.stringify(PROCESS_TARGETS),
    `k8s base: expected one Deployment per process of deploy/processes.ts (${PROCESS_TARGETS.join(',')}), got ${names.join(',')}`,
  );
  for (const deployment of deployments) {
    const where = `k8s base ${deployment.metadata.name}`;
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    check(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels), `${where}: selector does not match the pod labels`);
    checkPodSecurity(pod, container, where);
    const env = containerEnv(container, configMaps, secrets, where);
    for (const key of Object.keys(env)) check(isKnownEnv(key), `${where}: ${key} is not a Skald configuration variable`);
    checkProcessSettings(env.TARGET, env, where);
    const config = tryLoadConfig(env, where);
    if (!config) continue;
    const secretRefs = (container.envFrom ?? []).filter((source) => source.secretRef).map((source) => secrets[source.secretRef.name] ?? {});
    const configMapRefs = (container.envFrom ?? []).filter((source) => source.configMapRef).map((source) => configMaps[source.configMapRef.name] ?? {});
    const fromSecret = (key) =>
      secretRefs.some((data) => key in data) && !configMapRefs.some((data) => key in data) && !(container.env ?? []).some((item) => item.name === key);
    checkStripeEnv(config.target, env, config, fromSecret, where);
    check(config.target === deployment.metadata.name, `${where}: TARGET ${config.target} differs from the Deployment name`);
    if (config.target === 'ingestion') checkPhotoMemory(env, container.resources?.limits?.memory, 'ingestion', where);
    const port = container.ports.find((p) => p.name === 'http').containerPort;
    check(config.port === port, `${where}: PORT ${config.port} is not the container port ${port}`);
    const service = services.find((s) => selects(s.spec.selector, deployment.spec.template.metadata.labels));
    check(service && service.metadata.name === deployment.metadata.name && service.spec.ports[0].targetPort === 'http', `${where}: no Service of the same name targeting it`);
    checkMetricsScrape(deployment, container, config, services, where);
    const dataMount = container.volumeMounts.find((m) => m.mountPath === config.dataDir);
    check(dataMount && pod.volumes.some((v) => v.name === dataMount.name && v.emptyDir), `${where}: DATA_DIR ${config.dataDir} is not writable (emptyDir)`);
    if (config.target === 'gateway') {
      check(!container.envFrom.some((s) => s.secretRef), `${where}: the gateway needs no secrets and must not get them`);
      for (const [upstream, url] of Object.entries(config.serviceUrls)) {
        const target = services.find((s) => s.metadata.name === upstream);
        check(target && url === `http://${upstream}:${target.spec.ports[0].port}`, `${where}: SERVICE_URL_${upstream.toUpperCase()} names no Service port`);
      }
      continue;
    }
    // Key files: configured paths must be the Secret mount's projected items; the private key only for auth.
    const jwtMount = container.volumeMounts.find((m) => m.name === 'jwt');
    const jwtVolume = pod.volumes.find((v) => v.name === 'jwt');
    const files = (jwtVolume?.secret?.items ?? []).map((item) => `${jwtMount?.mountPath}/${item.path}`);
    check(jwtVolume?.secret?.secretName === 'skald-jwt', `${where}: JWT keys not from the skald-jwt Secret`);
    check(files.includes(config.jwt.publicKeyFile ?? ''), `${where}: JWT_PUBLIC_KEY_FILE is not a mounted file`);
    const privateMounted = files.some((f) => f.endsWith('jwt-private.pem'));
    check(privateMounted === (config.target === 'auth'), `${where}: the private key must reach the auth pod only`);
    if (config.target === 'auth') check(files.includes(config.jwt.privateKeyFile ?? ''), `${where}: JWT_PRIVATE_KEY_FILE is not a mounted file`);
    check(Boolean(config.stripe) === (config.target === 'billing'), `${where}: Stripe keys must reach billing only`);
  }
  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  for (const name of ['gateway', 'ingestion', 'logs']) {
    const pdb = pdbs.find((p) => p.metadata.name === name);
    const deployment = deployments.find((d) => d.metadata.name === name);
    check(pdb && deployment && selects(pdb.spec.selector.matchLabels, deployment.spec.template.metadata.labels), `k8s base: no PDB selecting ${name}`);
    check(deployment && pdb && deployment.spec.replicas > pdb.spec.minAvailable, `k8s base: ${name} replicas leave no room for its PDB`);
  }
  const ingress = objects.find((o) => o.kind === 'Ingress');
  check(ingress?.spec.rules[0].http.paths[0].backend.service.name === 'gateway', 'k8s base: the Ingress does not route to the gateway');
}

function checkAllInOne() {
  const dir = join(root, 'deploy', 'k8s', 'all-in-one');
  const objects = loadKustomization(dir);
  const configMaps = Object.fromEntries(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data]));
  const [deployment, ...others] = objects.filter((o) => o.kind === 'Deployment');
  const where = 'k8s all-in-one';
  if (!check(deployment && others.length === 0, `${where}: expected exactly one Deployment`)) return;
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  check(deployment.spec.replicas === 1 && deployment.spec.strategy?.type === 'Recreate', `${where}: must be 1 replica with Recreate`);
  checkPodSecurity(pod, container, where);
  const env = containerEnv(container, configMaps, {}, where);
  const config = tryLoadConfig(env, where);
  if (!config) return;
  check(config.target === 'all' && config.mode === 'all-in-one', `${where}: TARGET is not all`);
  checkMetricsScrape(deployment, container, config, objects.filter((o) => o.kind === 'Service'), where);
  checkPhotoMemory(env, container.resources?.limits?.memory, 'all', where);
  const dataMount = container.volumeMounts.find((m) => m.mountPath === config.dataDir);
  const claim = pod.volumes.find((v) => v.name === dataMount?.name)?.persistentVolumeClaim?.claimName;
  check(claim && objects.some((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === claim), `${where}: DATA_DIR is not on the PVC`);
  check(pod.securityContext?.fsGroup === 1000, `${where}: no fsGroup, the volume may not be writable`);
  const service = objects.find((o) => o.kind === 'Service');
  check(service && selects(service.spec.selector, deployment.spec.template.metadata.labels), `${where}: the Service selects no pod`);
}

// ---- run -----------------------------------------------------------------------------------------

for (const file of [join(root, 'docker-compose.yml'), ...listYaml(join(root, 'deploy'))]) readYamlDocs(file);
const { secretsKey } = checkGenSecrets();
checkDockerfile();
checkCompose(secretsKey);
checkBase(secretsKey);
checkAllInOne();

if (failures.length > 0) {
  console.error(`${failures.length} of ${checks} checks failed:`);
  for (const failure of failures) console.error(`  - ${failure}`);
  process.exit(1);
}
console.log(`deployment files OK (${checks} checks)`);
