/**
 * The dump engine against a hostile MySQL server (reliability notes): it offers no LOCAL INFILE capability
 * and sends no file when asked for /etc/passwd, and a server that stops answering is given up on after the
 * stall timeout; both runs fail with our reason and leave nothing in the object store.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutboundGuard } from '@skald/service-kit';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { DEFAULT_DUMP_LIMITS, dumpToObject } from '../src/testing.ts';
import { startRogueServer } from './support/rogue-mysql.ts';
import type { RogueServer } from './support/rogue-mysql.ts';

const CLIENT_LOCAL_FILES = 0x80;
let deps: TestDeps;
let rogue: RogueServer | undefined;

beforeEach(async () => {
  deps = await createTestDeps();
});

afterEach(async () => {
  await rogue?.close();
  rogue = undefined;
  await deps.cleanup();
});

function dumpFrom(port: number, limits = DEFAULT_DUMP_LIMITS) {
  return dumpToObject(
    { objects: deps.objects, outbound: createOutboundGuard({ allowed: ['127.0.0.1'] }) },
    { host: '127.0.0.1', port, user: 'skald', password: 'pw-for-rogue', database: 'game' },
    'backups/rogue.sql.gz',
    limits,
  );
}

describe('a rogue MySQL server', () => {
  it('asking for /etc/passwd with LOAD DATA LOCAL INFILE gets no file, and the run fails cleanly', async () => {
    rogue = await startRogueServer('ask-for-local-file');
    await expect(dumpFrom(rogue.port)).rejects.toThrow(/^The /);
    expect(rogue.clientFlags).toHaveLength(1);
    expect(rogue.clientFlags[0]! & CLIENT_LOCAL_FILES, 'the client offers no LOCAL INFILE').toBe(0);
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
    expect(rogue.received().length).toBeGreaterThan(0);
    expect(rogue.received().toString('latin1')).not.toContain(passwd);
    expect(await deps.objects.list('')).toEqual([]);
  });

  it('that stops answering is given up after the stall timeout, with nothing stored', async () => {
    rogue = await startRogueServer('stall');
    const started = Date.now();
    await expect(dumpFrom(rogue.port, { ...DEFAULT_DUMP_LIMITS, stallTimeoutMs: 400 })).rejects.toThrow('The database stopped answering (nothing for 400 ms)');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await deps.objects.list('')).toEqual([]);
  });
});
