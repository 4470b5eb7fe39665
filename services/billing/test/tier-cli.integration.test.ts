/**
 * `npm run skald -- servers:tier <serverId> <tier>` (gateway/src/cli.ts in its own process) on an
 * all-in-one DATA_DIR: billing's store records the staff tier and server.tier-changed goes out through the
 * bus journal with an audit entry, so every read model (and billing's current-tier answer) follows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentStore, createEventBus } from '@skald/adapters';
import { TOPICS } from '@skald/contracts';
import { createIdentityReadModel } from '@skald/service-kit';
import { createTestDeps, generateTestKeys, waitFor } from '@skald/testing';
import { createHarness, getAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', '..', 'gateway', 'src', 'cli.ts');
const S = 'srv-cli';

let dataDir: string;
const keys = generateTestKeys();

/** Runs the billing service on the all-in-one layout of dataDir (the files the CLI opens), then closes everything. */
async function withBilling<T>(fn: (h: Harness) => Promise<T>): Promise<T> {
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dataDir, 'billing', 'documents.db') });
  const bus = await createEventBus({ kind: 'memory', file: join(dataDir, 'bus', 'journal.db') });
  const rest = await createTestDeps({ service: 'billing', overrides: { docs, bus } });
  const h = await createHarness({}, { deps: { ...rest, keys } });
  try {
    return await fn(h);
  } finally {
    await h.close();
    await rest.cleanup();
    await bus.close();
    await docs.close();
  }
}

const cli = (...args: string[]) => run(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir, TARGET: 'all' } });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skald-tier-cli-'));
  await withBilling((h) => seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'free' }));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('npm run skald -- servers:tier', () => {
  it('sets the tier in billing and publishes it with an audit entry; read models follow', async () => {
    const { stdout } = await cli('servers:tier', S, 'voyager');
    expect(stdout).toContain(`Server ${S} is now on the voyager tier.`);

    await withBilling(async (h) => {
      expect((await getAs(h, `/tiers/current-tier/${S}`, 'owner-1')).json().tierKey).toBe('voyager');
      // Another service's read model, reading the same journal from the start, sees the tier.
      const model = await createIdentityReadModel({ bus: h.deps.bus, docs: h.deps.docs, group: 'test.tier-cli-reader', collectionPrefix: 'cli_rm_' });
      await model.start();
      try {
        await waitFor(async () => (await model.server(S))?.tier === 'voyager', 'the read model to apply the tier');
      } finally {
        await model.stop();
      }
      await waitFor(async () => h.published.some((m) => m.topic === TOPICS.audit), 'the audit entry');
      const audit = h.published.find((m) => m.topic === TOPICS.audit)!.payload as { data: Record<string, unknown> };
      expect(audit.data).toMatchObject({ actorId: 'cli', actorEmail: 'cli@localhost', serverId: S, action: 'staff.tier-changed', details: { from: 'free', to: 'voyager', by: 'staff' } });
    });
  });

  it('refuses an unknown server (exit 1), a bad tier and missing arguments (exit 2, with the usage)', async () => {
    await expect(cli('servers:tier', 'no-such-server', 'pro')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No server with id "no-such-server"') });
    await expect(cli('servers:tier', S, 'gold')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('servers:tier <serverId> <free|lite|starter|explorer|voyager|pioneer|pro|legend>') });
    await expect(cli('servers:tier', S)).rejects.toMatchObject({ code: 2 });
    await expect(cli('servers:nothing')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('users:promote <username>') });
  });
});
