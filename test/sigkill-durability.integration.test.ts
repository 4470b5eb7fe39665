/**
 * The all-in-one process as users run it (`node gateway/src/main.ts`): starts with every service healthy
 * (how fast is a speed figure: `npm run bench -- startup`, target 10 s), idles under 250 MB RSS, and keeps acknowledged writes across a SIGKILL:
 * a registered user can log in after the restart, and a log accepted (2xx) just before the kill is stored, with
 * the player its metadata names.
 * The SIGKILL check runs again with the Kafka adapter on librdkafka's mock cluster (kcat), where the log
 * travels ingestion → Kafka (acks -1) → the logs service's consumer group, which must resume from its
 * committed offset after the restart.
 */
import { describe, expect, it, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@skald/service-kit';
import { api, createServer, login, registerAndLogin } from './support/api-client.ts';
import { eventually, rssMb, startSkald, waitForOk } from './support/processes.ts';
import type { SkaldProcess } from './support/processes.ts';
import { KAFKA_MOCK_ENV, startKafkaMockCluster } from '../libs/adapters/test/support/kafka-mock-cluster.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'skald-durability-'));
const kafkaDataDir = mkdtempSync(join(tmpdir(), 'skald-durability-kafka-'));
const started: SkaldProcess[] = [];

/**
 * A restart on the same data gets a new port like a first start: the test reaches the process by the
 * address it reports, and nothing else points at the old one. readyMs counts from the spawn.
 */
async function startAllInOne(dir = dataDir, env: Record<string, string> = {}): Promise<{ proc: SkaldProcess; readyMs: number }> {
  const spawnedAt = Date.now();
  const proc = await startSkald('all-in-one', { DATA_DIR: dir, SKIP_WEB_BUILD: '1', ...env });
  started.push(proc);
  await waitForOk(proc, '/api/health', 60_000);
  return { proc, readyMs: Date.now() - spawnedAt };
}

const kafkaMock = await startKafkaMockCluster();

afterAll(async () => {
  for (const proc of started) await proc.kill('SIGKILL');
  await kafkaMock.cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(kafkaDataDir, { recursive: true, force: true });
});

describe('all-in-one process', () => {
  let first: SkaldProcess;

  // timeout: starts the all-in-one (up to 60 s to bind and 60 s to answer on a loaded machine)
  it('answers /api/health and every service health', { timeout: 150_000 }, async () => {
    const t0 = Date.now();
    const { proc, readyMs } = await startAllInOne();
    first = proc;
    for (const name of SERVICE_NAMES) {
      const response = await api(proc.baseUrl, 'GET', `/api/${name}/health`);
      expect(response.status, `${name} health`).toBe(200);
    }
    const total = Date.now() - t0;
    console.log(`all-in-one: /api/health ready after ${readyMs} ms, all service health answers after ${total} ms`);
    const health = await api<{ status: string; services: Record<string, string> }>(proc.baseUrl, 'GET', '/api/health');
    expect(health.body.status).toBe('ok');
    expect(Object.keys(health.body.services).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('idles under 250 MB RSS', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rss = await rssMb(first.child.pid!);
    console.log(`all-in-one idle RSS: ${rss.toFixed(1)} MB`);
    expect(rss).toBeLessThan(250);
  });

  // timeout: SIGKILLs and starts the all-in-one again (as long as a first start on a loaded machine)
  it('keeps acknowledged writes across SIGKILL', { timeout: 180_000 }, async () => {
    const token = await registerAndLogin(first.baseUrl, 'durable_user');
    const server = await createServer(first.baseUrl, token, 'Durable Server');
    // The ingestion read model learns the new key from the bus; retry until it accepts.
    const accepted = await eventually('the new API key to be accepted', async () => {
      const response = await api(first.baseUrl, 'POST', '/api/logs', {
        headers: { 'x-api-key': server.api_key },
        body: { message: 'written before the crash', level: 'warn', type: 'Durability', metadata: { player: { name: 'Durable Dan', identifiers: ['license:d0rab1e'] } } },
      });
      return response.status >= 200 && response.status < 300 ? response : undefined;
    });
    expect(accepted.status).toBeLessThan(300);
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    const { proc: second } = await startAllInOne();
    const again = await login(second.baseUrl, 'durable_user');
    expect(again.length).toBeGreaterThan(20);
    const found = await eventually('the log accepted before the crash', async () => {
      const response = await api<{ message: string }[]>(second.baseUrl, 'GET', `/api/logs/my?serverId=${server.id}`, { token: again });
      return response.status === 200 && Array.isArray(response.body) && response.body.some((l) => l.message === 'written before the crash')
        ? response.body
        : undefined;
    });
    expect(found.length).toBeGreaterThan(0);
    // Its player too: the log's players were queued durably with it, whatever the recorder had done by the kill.
    const player = await eventually("the accepted log's player", async () => {
      const response = await api<{ logCount: number; name: string | null }>(second.baseUrl, 'GET', `/api/players/by-identifier/license:d0rab1e?serverId=${server.id}`, { token: again });
      return response.status === 200 ? response.body : undefined;
    });
    expect(player).toMatchObject({ logCount: 1, name: 'Durable Dan' });

    // A SIGTERM is a graceful stop: in-flight work finishes, consumers commit, the exit code is 0.
    await second.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.output()).toContain('shutting down');
  });
});

if (kafkaMock.cluster === null) {
  console.log(`skipped: all-in-one SIGKILL durability on Kafka: ${kafkaMock.reason}`);
} else {
  const kafkaEnv = { EVENT_BUS: 'kafka', KAFKA_BROKERS: kafkaMock.cluster.bootstrap, ...KAFKA_MOCK_ENV,
    // The killed process's group members never leave: the group hands their partitions over after this.
    KAFKA_SESSION_TIMEOUT_MS: '10000',
  };
  describe('all-in-one process on Kafka (librdkafka mock cluster)', () => {
    // timeout: SIGKILLs and restarts the all-in-one; on Kafka the restart waits out the killed session
    it('keeps a log accepted just before a SIGKILL: stored once after the restart', { timeout: 180_000 }, async () => {
      const { proc: first } = await startAllInOne(kafkaDataDir, kafkaEnv);
      const token = await registerAndLogin(first.baseUrl, 'kafka_durable');
      const server = await createServer(first.baseUrl, token, 'Kafka Durable');
      const accepted = await eventually('the new API key to be accepted', async () => {
        const response = await api(first.baseUrl, 'POST', '/api/logs', {
          headers: { 'x-api-key': server.api_key },
          body: { message: 'on kafka before the crash', level: 'warn', type: 'Durability' },
        });
        return response.status >= 200 && response.status < 300 ? response : undefined;
      }, 60_000); // the restarted process replays its journal before it answers
      expect(accepted.status).toBe(201);
      await first.kill('SIGKILL');

      const killedAt = Date.now();
      const { proc: second } = await startAllInOne(kafkaDataDir, kafkaEnv);
      const again = await login(second.baseUrl, 'kafka_durable');
      // The killed process's group members never left: Kafka hands their partitions over once their
      // session times out (KAFKA_SESSION_TIMEOUT_MS above), so allow for that before the consumer resumes.
      const found = await eventually('the log accepted before the crash', async () => {
        const response = await api<{ message: string }[]>(second.baseUrl, 'GET', `/api/logs/my?serverId=${server.id}`, { token: again });
        return response.status === 200 && Array.isArray(response.body) && response.body.some((l) => l.message === 'on kafka before the crash')
          ? response.body
          : undefined;
      }, 120_000, 500);
      console.log(`kafka (mock cluster): the log accepted before the SIGKILL was stored ${Date.now() - killedAt} ms after the kill`);
      expect(found.filter((l) => l.message === 'on kafka before the crash')).toHaveLength(1);
      await second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    });
  });
}
