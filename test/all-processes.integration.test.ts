/**
 * The distributed form, every process on its own, as deploy/processes.ts lists them (the list
 * the manifest checker holds docker-compose.yml and deploy/k8s to): the gateway and the seven services
 * (TARGET=<process>), once with the Kafka adapter on librdkafka's mock cluster and once on Redis Streams;
 * BullMQ and counters on the machine's Redis, SQLite stores in each process's own DATA_DIR, the
 * file-system object store shared as the bucket, a METRICS_PORT each (test/support/topology.ts).
 *
 * Per bus, one topology serves both tests:
 *   - the end-to-end flow through the gateway (what the browser walkthrough does): register, a server,
 *     text and photo logs, dashboard, lists, the photo itself, a paid tier through Stripe's webhook, a
 *     webhook delivered to a local receiver, a backup of the machine's MariaDB, the audit trail, staff
 *     actions, an export, and every process's /metrics (request counts, consumer lag);
 *   - faults: SIGKILL the logs process, then ingestion, then the gateway, each in the middle of a stream
 *     of ingested logs, and restart it: every acknowledged log is stored, none twice, the consumer lag
 *     read from /metrics returns to zero; the recovery times are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { startStripeTestServer } from '@skald/adapters/stripe-test-server';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import type { BusKind } from '../deploy/processes.ts';
import { SKALD_PROCESSES } from '../deploy/processes.ts';
import { startKafkaMockCluster } from '../libs/adapters/test/support/kafka-mock-cluster.ts';
import type { KafkaMockCluster } from '../libs/adapters/test/support/kafka-mock-cluster.ts';
import { createGameDatabase, dropDatabase, mariadbAvailable, uniqueDatabaseName } from '../services/backups/test/support/game-database.ts';
import { deleteRedisKeys, redisReachable } from '@skald/testing';
import { startReceiver } from '../services/webhooks/test/support/receiver.ts';
import type { Receiver } from '../services/webhooks/test/support/receiver.ts';
import { api, createServer, login, registerAndLogin } from './support/api-client.ts';
import { eventually, REPO_ROOT } from './support/processes.ts';
import { FaultStream, storedStreamLogs } from './support/fault-stream.ts';
import { seriesSum, seriesValue, startTopology } from './support/topology.ts';
import type { ProcessName, Topology } from './support/topology.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LOGS_TOPIC = 'skald.logs.ingested.v1';
const AUDIT_TOPIC = 'skald.audit.v1';
const IDENTITY_TOPIC = 'skald.identity.v1';



const redisUp = await redisReachable(REDIS_URL);
if (!redisUp) console.log(`skipped: all processes: Redis not reachable at ${REDIS_URL} (BullMQ, counters and one of the buses need it)`);
const mariadbUp = redisUp && (await mariadbAvailable());
if (redisUp && !mariadbUp) console.log('skipped: all processes: the backup step needs the MariaDB at 127.0.0.1:3306');

/** The consumer lag a process reports for one group and topic, from its /metrics. */
function lagOf(scrape: string, group: string, topic: string): number | undefined {
  return seriesValue(scrape, `skald_bus_consumer_lag{group="${group}",topic="${topic}"}`);
}

async function waitForLagZero(topology: Topology, name: ProcessName, group: string, topic: string, timeoutMs = 60_000): Promise<void> {
  await eventually(`${name}: consumer lag of ${group} on ${topic} back to 0`, async () => (lagOf(await topology.scrape(name), group, topic) === 0 ? true : undefined), timeoutMs, 250);
}

function requestCount(scrape: string, method: string, route: string, status: number): number {
  return seriesSum(scrape, 'skald_http_request_duration_seconds_count', [`method="${method}"`, `route="${route}"`, `status_code="${status}"`]);
}

function defineSuite(bus: BusKind, kafka: () => KafkaMockCluster | null): void {
  describe.skipIf(!redisUp)(`all eight processes on ${bus === 'kafka' ? 'Kafka (librdkafka mock cluster)' : 'Redis Streams'}`, () => {
    let root: string;
    const redisPrefix = `skaldall-${bus}-${randomBytes(5).toString('hex')}`;
    const backupDatabase = uniqueDatabaseName(`all${bus}`);
    let topology: Topology;
    let stripe: StripeTestServer;
    let receiver: Receiver;
    let superToken: string;
    let G: string;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), `skald-all-${bus}-`));
      stripe = await startStripeTestServer();
      receiver = await startReceiver();
      if (mariadbUp) await createGameDatabase(backupDatabase);
      const started = Date.now();
      topology = await startTopology({
        bus,
        root,
        redisUrl: REDIS_URL,
        redisPrefix,
        ...(bus === 'kafka' ? { kafkaBrokers: kafka()!.bootstrap } : {}),
        stripe,
      });
      G = topology.gatewayUrl;
      console.log(`${bus}: ${SKALD_PROCESSES.length} processes ready after ${Date.now() - started} ms`);
      // A superadmin, promoted with the operator command on the auth process's own configuration.
      await registerAndLogin(G, `all_${bus}_super`);
      await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'cli.ts'), 'users:promote', `all_${bus}_super`, 'superadmin'], {
        env: { ...process.env, ...topology.envOf('auth') },
      });
      superToken = await login(G, `all_${bus}_super`);
    }, 600_000); // seven services start together, then the gateway (each bound by its own CPU, START_BOUNDS: on a machine at load 25 that is minutes of wall time), then each gets up to 60 s to be ready

    afterAll(async () => {
      await topology?.stop();
      await deleteRedisKeys(REDIS_URL, redisPrefix);
      await stripe?.close();
      await receiver?.close();
      if (mariadbUp) await dropDatabase(backupDatabase);
      if (root) rmSync(root, { recursive: true, force: true });
    });

    // timeout: the whole flow through eight processes, then every /metrics
    it('runs the end-to-end flow through the gateway and every process reports it in /metrics', { timeout: 180_000 }, async () => {
      // Every process answers its own health; the gateway reports every upstream ready.
      const health = await api<{ status: string; services: Record<string, string> }>(G, 'GET', '/api/health');
      expect(health.body.services).toEqual({ auth: 'ok', ingestion: 'ok', logs: 'ok', webhooks: 'ok', backups: 'ok', billing: 'ok', admin: 'ok' });

      // Register, a server; ingestion learns its key from auth's identity event.
      const token = await registerAndLogin(G, `all_${bus}_owner`);
      expect((await api(G, 'GET', '/api/auth/me', { token })).status).toBe(200);
      const server = await createServer(G, token, `All ${bus}`);
      const text = [
        { message: `join on ${bus}`, level: 'info', type: 'Join', resource: 'core' },
        { message: `chat on ${bus}`, level: 'warn', type: 'Chat', resource: 'chat' },
        { message: `death on ${bus}`, level: 'error', type: 'Death', resource: 'core' },
      ];
      await eventually('ingestion to accept the new key', async () => {
        const response = await api(G, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: text });
        return response.status === 201 ? true : undefined;
      });
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();
      const form = new FormData();
      form.append('message', `photo on ${bus}`);
      form.append('level', 'info');
      form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'shot.png');
      const photoAnswer = await fetch(`${G}/api/photologs`, { method: 'POST', headers: { 'x-api-key': server.api_key }, body: form });
      expect(photoAnswer.status).toBe(201);

      // Lists and the dashboard from the logs process.
      const listed = await eventually('the logs process to list the text logs', async () => {
        const response = await api<{ message: string }[]>(G, 'GET', `/api/logs/my?serverId=${server.id}`, { token });
        return response.status === 200 && response.body.length === 3 ? response.body : undefined;
      });
      expect(listed.map((l) => l.message).sort()).toEqual(text.map((l) => l.message).sort());
      type PhotoPage = { photologs: { message: string; image_path: string; thumb_path: string }[]; stored: number };
      const photos = await eventually('the photo log', async () => {
        const response = await api<PhotoPage>(G, 'GET', `/api/photologs/my?serverId=${server.id}`, { token });
        return response.status === 200 && response.body.photologs.length === 1 ? response.body : undefined;
      });
      expect(photos.photologs[0]!.message).toBe(`photo on ${bus}`);
      // Written by ingestion, served by logs: the shared bucket.
      for (const path of [photos.photologs[0]!.image_path, photos.photologs[0]!.thumb_path]) {
        const image = await fetch(`${G}${path}`);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toMatch(/^image\//);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      const stats = await api<{ totals: { all: number; text: number; photo: number } }>(G, 'GET', `/api/logs/stats?serverId=${server.id}`, { token });
      expect(stats.status).toBe(200);
      expect(stats.body.totals).toEqual({ all: 4, text: 3, photo: 1 });

      // A paid tier: checkout at the Stripe test server, its signed webhook through the gateway to billing.
      await eventually('billing to know the server', async () => ((await api(G, 'GET', `/api/tiers/current-tier/${server.id}`, { token })).status === 200 ? true : undefined));
      const checkout = await api<{ url: string }>(G, 'POST', '/api/billing/create-checkout-session', { token, body: { serverId: server.id, tier: 'starter' } });
      expect(checkout.status).toBe(200);
      const customerId = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.params['customer']!;
      const subscriptionId = `sub_all_${bus}`;
      stripe.putSubscription({ id: subscriptionId, customerId, status: 'active', priceId: 'price_starter', serverId: server.id });
      const signed = stripe.signedWebhook({ type: 'checkout.session.completed', serverId: server.id, customerId, subscriptionId });
      const paid = await fetch(`${G}/api/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature }, body: new Uint8Array(signed.body) });
      expect(paid.status).toBe(200);
      const tier = await api<{ tierKey: string; subscriptionStatus: string }>(G, 'GET', `/api/tiers/current-tier/${server.id}`, { token });
      expect(tier.body).toMatchObject({ tierKey: 'starter', subscriptionStatus: 'active' });

      // Webhooks follow the tier (identity event from billing) and deliver an error log to the local receiver.
      await eventually('the webhooks process to allow a webhook on the starter tier', async () => {
        const response = await api(G, 'POST', '/api/webhooks', { token, body: { serverId: server.id, url: receiver.url, platform: 'discord', log_level: 'error' } });
        return response.status === 201 ? true : undefined;
      });
      const delivered = `delivered on ${bus}`;
      expect((await api(G, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: [{ message: 'not matched', level: 'info' }, { message: delivered, level: 'error' }] })).status).toBe(201);
      await eventually('the delivery at the receiver', async () => (receiver.requests.some((r) => r.raw.includes(delivered)) ? true : undefined));
      expect(receiver.requests.some((r) => r.raw.includes('not matched'))).toBe(false);

      // A backup of the machine's MariaDB, streamed back through the gateway.
      if (mariadbUp) {
        await eventually('the backups process to see the starter tier', async () => {
          const response = await api<{ maxBackups: number }>(G, 'GET', `/api/backups/${server.id}/settings`, { token });
          return response.status === 200 && response.body.maxBackups === 3 ? true : undefined;
        });
        // Manual backups only: on BullMQ a newly enabled schedule fires its first run at once (the embedded
        // queue waits one interval), and "create now" would meet that run's lock (409).
        const settings = { enabled: false, interval_hours: 24, db_host: '127.0.0.1', db_port: 3306, db_user: 'root', db_name: backupDatabase };
        expect((await api(G, 'POST', `/api/backups/${server.id}/settings`, { token, body: settings })).status).toBe(200);
        const created = await api<{ id: string }>(G, 'POST', `/api/backups/${server.id}/create`, { token });
        expect(created.status).toBe(202);
        const done = await eventually('the backup to finish', async () => {
          const list = await api<{ id: string; status: string; size: number }[]>(G, 'GET', `/api/backups/${server.id}`, { token });
          const found = list.body.find((b) => b.id === created.body.id);
          return found && found.status !== 'running' ? found : undefined;
        }, 60_000); // a paid tier, a webhook and a backup through separate processes
        expect(done.status).toBe('done');
        const download = await fetch(`${G}/api/backups/${server.id}/download/${done.id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(download.status).toBe(200);
        const sql = await download.text();
        expect(Buffer.byteLength(sql)).toBe(done.size);
        expect(sql).toMatch(/^-- Skald backup of database/);
      } else {
        console.log('skipped: the backup step: no MariaDB at 127.0.0.1:3306');
      }

      // The audit trail (admin process) holds what the owner did in auth, billing and webhooks.
      expect((await api(G, 'PATCH', '/api/settings/server-name', { token, body: { serverId: server.id, newName: `All ${bus} renamed` } })).status).toBe(200);
      type Trail = { logs: { action: string }[]; total: number };
      // 60 s: with three integration files at a time on two cores the mock cluster's group coordination
      // was seen to need more than 20 s; a miss prints the admin process's lag and output to tell a slow
      // consumer from a lost entry.
      const trail = await eventually('the rename in the audit trail', async () => {
        const response = await api<Trail>(G, 'GET', `/api/server/${server.id}/audit-logs`, { token });
        return response.status === 200 && response.body.logs.some((l) => l.action === 'server.renamed') ? response.body : undefined;
      }, 60_000).catch(async (error: unknown) => {
        const lag = lagOf(await topology.scrape('admin').catch(() => ''), 'admin.audit', 'skald.audit.v1');
        throw new Error(`${String(error)}; admin.audit lag ${String(lag)}; admin output:\n${topology.proc('admin').output().slice(-4000)}`);
      });
      expect(trail.logs.map((l) => l.action)).toEqual(expect.arrayContaining(['server.created', 'server.renamed']));

      // Staff: the superadmin sets a tier through billing; the admin process lists the staff action.
      const staffServer = await createServer(G, token, `All ${bus} staffed`);
      await eventually('billing to know the second server', async () => ((await api(G, 'GET', `/api/tiers/current-tier/${staffServer.id}`, { token })).status === 200 ? true : undefined));
      expect((await api(G, 'PUT', `/api/admin/servers/${staffServer.id}/tier`, { token, body: { tier: 'lite' } })).status).toBe(403);
      expect((await api(G, 'PUT', `/api/admin/servers/${staffServer.id}/tier`, { token: superToken, body: { tier: 'lite' } })).status).toBe(200);
      await eventually('the staff action in /admin/logs', async () => {
        const response = await api<{ logs: { action: string; server_id: string | null }[] }>(G, 'GET', '/api/admin/logs', { token: superToken });
        return response.status === 200 && response.body.logs.some((l) => l.action === 'staff.tier-changed' && l.server_id === staffServer.id) ? true : undefined;
      });
      expect((await api(G, 'GET', '/api/admin/logs', { token })).status).toBe(403);
      // The admin process counts what the logs process stored (its live counts facts, seconds behind): the
      // owner's 5 text logs and 1 photo, on the 2 servers of this run.
      type Stats = { totalLogs: number; totalPhotoLogs: number; totalServers: number };
      const adminStats = await eventually('the stored logs in /admin/stats', async () => {
        const response = await api<Stats>(G, 'GET', '/api/admin/stats', { token: superToken });
        expect(response.status).toBe(200);
        return response.body.totalLogs === 5 && response.body.totalPhotoLogs === 1 ? response.body : undefined;
      });
      expect(adminStats.totalServers).toBe(2);
      expect((await api(G, 'GET', '/api/admin/stats', { token })).status).toBe(403);

      // An export from the logs process, counted on Redis.
      const csv = await api<string>(G, 'GET', `/api/exports/logs?serverId=${server.id}`, { token });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      for (const log of text) expect(csv.body).toContain(log.message);
      expect((await api<{ used: number }>(G, 'GET', `/api/exports/status?serverId=${server.id}`, { token })).body.used).toBe(1);

      // Every process's /metrics, read during the run: its own requests and its consumer groups.
      const expectedRequests: Record<ProcessName, [string, string, number]> = {
        gateway: ['POST', '/api/*', 201],
        auth: ['POST', '/auth/register', 201],
        ingestion: ['POST', '/logs', 201],
        logs: ['GET', '/logs/my', 200],
        webhooks: ['POST', '/webhooks', 201],
        backups: ['GET', '/backups/:serverId/settings', 200],
        billing: ['POST', '/billing/webhook', 200],
        admin: ['GET', '/server/:id/audit-logs', 200],
      };
      const identityGroup: Partial<Record<ProcessName, string>> = {
        auth: 'auth.identity', ingestion: 'ingestion.identity', logs: 'logs.identity', webhooks: 'webhooks.identity',
        backups: 'backups.identity', billing: 'billing.identity', admin: 'admin.identity',
      };
      for (const spec of SKALD_PROCESSES) {
        const scrape = await topology.scrape(spec.target);
        const [method, route, status] = expectedRequests[spec.target];
        expect(requestCount(scrape, method, route, status), `${spec.target}: ${method} ${route} ${status}`).toBeGreaterThanOrEqual(1);
        expect(seriesValue(scrape, 'process_resident_memory_bytes'), `${spec.target}: process metrics`).toBeGreaterThan(0);
        const group = identityGroup[spec.target];
        if (group) expect(lagOf(scrape, group, IDENTITY_TOPIC), `${spec.target}: ${group} lag`).toBeDefined();
        for (const secret of [server.api_key, token]) expect(scrape).not.toContain(secret);
      }
      const ingestion = await topology.scrape('ingestion');
      expect(seriesValue(ingestion, 'skald_ingest_logs_accepted_total{route="/logs"}')).toBeGreaterThanOrEqual(5);
      expect(seriesValue(ingestion, 'skald_ingest_logs_accepted_total{route="/photologs"}')).toBe(1);
      await waitForLagZero(topology, 'logs', 'logs-store', LOGS_TOPIC);
      await waitForLagZero(topology, 'webhooks', 'webhooks-delivery', LOGS_TOPIC);
      await waitForLagZero(topology, 'admin', 'admin.audit', AUDIT_TOPIC);
      expect(seriesValue(await topology.scrape('admin'), 'skald_bus_dead_letters_total{group="admin.audit",topic="skald.audit.v1"}') ?? 0).toBe(0);
      for (const proc of topology.everyProcess()) expect(proc.output()).not.toContain(server.api_key);
    });

    // timeout: three SIGKILLs and restarts; on Kafka each restart waits out the killed members' sessions
    it('SIGKILL of logs, then ingestion, then the gateway mid-stream: every acknowledged log stored once, lag back to 0', { timeout: 180_000 }, async () => {
      const token = await registerAndLogin(G, `all_${bus}_faults`);
      const server = await createServer(G, token, `All ${bus} faults`);
      // A tier whose hourly quota holds the stream (the staff route: billing publishes the tier).
      await eventually('billing to know the server', async () => ((await api(G, 'GET', `/api/tiers/current-tier/${server.id}`, { token })).status === 200 ? true : undefined));
      expect((await api(G, 'PUT', `/api/admin/servers/${server.id}/tier`, { token: superToken, body: { tier: 'voyager' } })).status).toBe(200);
      await eventually('ingestion to accept the key', async () =>
        (await api(G, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: { message: 'warm-up', type: 'WarmUp' } })).status === 201 ? true : undefined,
      );

      const stream = new FaultStream(G, server.api_key, `${bus}`);
      /** Acknowledged logs the logs process does not list (yet). */
      const missing = async (): Promise<string[]> => {
        const stored = new Set((await storedStreamLogs(G, token, server.id)).map((l) => l.message));
        return stream.acknowledged().filter((message) => !stored.has(message));
      };
      stream.start();
      try {
        for (const name of ['logs', 'ingestion', 'gateway'] as const) {
          await stream.waitForAcknowledged(stream.acknowledged().length + 60);
          const killedAt = Date.now();
          await topology.kill(name);
          // The stream keeps sending while the process is down: refusals and failures are not acknowledged.
          const [ackedAtKill, unansweredAtKill] = [stream.acknowledged().length, stream.notAcknowledged()];
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          if (name === 'logs') {
            // Ingestion does not wait for the logs process: these wait on the bus until it is back.
            expect(stream.acknowledged().length, 'logs acknowledged while the logs process was down').toBeGreaterThan(ackedAtKill);
          } else {
            expect(stream.notAcknowledged(), `requests refused or unanswered while ${name} was down`).toBeGreaterThan(unansweredAtKill);
          }
          await topology.restart(name);
          const readyAfter = Date.now() - killedAt;
          await stream.waitForAcknowledged(stream.acknowledged().length + 1, 60_000);
          const acceptingAfter = Date.now() - killedAt;
          // Paused, so "every acknowledged log stored" has a fixed target.
          await stream.pause();
          await waitForLagZero(topology, 'logs', 'logs-store', LOGS_TOPIC, 90_000);
          await eventually(`every log acknowledged before the ${name} SIGKILL and since stored`, async () => ((await missing()).length === 0 ? true : undefined), 60_000, 500);
          console.log(
            `${bus}: SIGKILL ${name}: ready again after ${readyAfter} ms, logs acknowledged through it again after ${acceptingAfter} ms, ` +
              `logs-store lag 0 with all ${stream.acknowledged().length} acknowledged logs stored after ${Date.now() - killedAt} ms`,
          );
          stream.resume();
        }
      } finally {
        await stream.stop();
      }

      // Nothing acknowledged lost, nothing stored twice, nothing stored that was never sent.
      const acknowledged = stream.acknowledged();
      const stored = await storedStreamLogs(G, token, server.id);
      const storedMessages = stored.map((l) => l.message);
      expect(new Set(stored.map((l) => l.id)).size).toBe(stored.length);
      expect(new Set(storedMessages).size).toBe(stored.length);
      const storedSet = new Set(storedMessages);
      expect(acknowledged.filter((m) => !storedSet.has(m))).toEqual([]);
      const sent = new Set(stream.sent());
      expect(storedMessages.filter((m) => !sent.has(m))).toEqual([]);
      console.log(`${bus}: stream of ${stream.sent().length} logs: ${acknowledged.length} acknowledged, ${stored.length} stored, ${stream.summary()}`);

      // The other group on the logs topic caught up too, and nothing went to a dead-letter topic.
      await waitForLagZero(topology, 'webhooks', 'webhooks-delivery', LOGS_TOPIC);
      expect(seriesValue(await topology.scrape('logs'), `skald_bus_dead_letters_total{group="logs-store",topic="${LOGS_TOPIC}"}`) ?? 0).toBe(0);
      for (const proc of topology.everyProcess()) expect(proc.output()).not.toContain(server.api_key);
    });
  });
}

const kafkaStart = redisUp ? await startKafkaMockCluster() : { cluster: null, reason: 'Redis not reachable' };
afterAll(async () => {
  if (kafkaStart.cluster) await kafkaStart.cluster.stop();
});
if (kafkaStart.cluster === null) console.log(`skipped: all processes on Kafka: ${kafkaStart.reason}`);
else defineSuite('kafka', () => kafkaStart.cluster);
defineSuite('redis', () => null);
