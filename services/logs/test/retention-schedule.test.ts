/** The retention sweep runs by itself on the embedded job queue (the SQLite deployments have no TTL index). */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createJobQueue } from '@skald/adapters';
import type { JobQueue, Worker } from '@skald/ports';
import { startRetention } from '../src/domain/retention.ts';
import { MemoryLogStore } from './support/memory-log-store.ts';
import { MemoryObjectStore } from './support/memory-stores.ts';
import { record } from './support/harness.ts';
import { waitFor } from './support/wait.ts';

let dir: string | undefined;
let jobs: JobQueue | undefined;
let worker: Worker | undefined;

afterEach(async () => {
  await worker?.close();
  await jobs?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('scheduled retention', () => {
  it('deletes expired logs and their photos without being asked', async () => {
    dir = await mkdtemp(join(tmpdir(), 'logs-retention-'));
    jobs = await createJobQueue({ kind: 'embedded', file: join(dir, 'jobs.db') });
    const logStore = new MemoryLogStore();
    const objects = new MemoryObjectStore();
    await objects.put('photos/s/old.webp', Buffer.from('x'), 'image/webp');
    const past = Date.now() - 1000;
    await logStore.insertBatch([
      record('s', { id: 'expired', expiresAt: past, logType: 'photo', imageKey: 'photos/s/old.webp', thumbKey: null }),
      record('s', { id: 'kept', expiresAt: Date.now() + 86_400_000 }),
    ]);
    worker = await startRetention(jobs, { logStore, objects, log: pino({ level: 'silent' }) }, 200);
    await waitFor(() => logStore.records.has('expired'), (present) => !present, 10_000);
    expect([...logStore.records.keys()]).toEqual(['kept']);
    expect(objects.objects.size).toBe(0);
  });
});
