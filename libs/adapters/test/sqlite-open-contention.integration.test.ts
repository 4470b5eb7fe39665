/**
 * Two processes opening one new SQLite file at the same moment (two logs replicas sharing a DATA_DIR, a
 * restart overlapping its predecessor): switching a new file to WAL needs it to itself, so every embedded
 * adapter sets its busy timeout BEFORE that switch and waits for the other process instead of failing its
 * start with "database is locked" (the multi-replica integration test failed so under load).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentStore, createEventBus, createJobQueue, createLogStore } from '../src/index.ts';

const HOLD_MS = 600;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-open-contention-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another process creates the file (rollback journal, as a new file starts) and holds a write on it, as the
 * first opener does while it sets the file up; resolves once it holds.
 */
async function holdWrite(file: string): Promise<{ readonly exited: Promise<void> }> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec('CREATE TABLE IF NOT EXISTS other_process (x)');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('INSERT INTO other_process VALUES (1)');
    console.log('holding');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});
    db.exec('COMMIT');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`holder exited ${code}`))));
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('holding')) resolve();
    });
    child.on('error', reject);
  });
  // Wrapped: an async function returning the promise itself would wait for it.
  return { exited };
}

const openers: Record<string, (file: string) => Promise<{ close(): Promise<void> }>> = {
  'document store': (file) => createDocumentStore({ kind: 'sqlite', file }),
  'log store': (file) => createLogStore({ kind: 'sqlite', file, layout: 'rows' }),
  'log store, block layout': (file) => createLogStore({ kind: 'sqlite', file, layout: 'blocks' }),
  'journal bus': (file) => createEventBus({ kind: 'memory', file }),
  'embedded job queue': (file) => createJobQueue({ kind: 'embedded', file }),
};

describe('opening a SQLite file another process has open', () => {
  for (const [name, open] of Object.entries(openers)) {
    // timeout: another process (seconds to start on a loaded machine) holds the database while this one opens it
    it(`${name}: waits for the other process instead of failing with "database is locked"`, { timeout: 90_000 }, async () => {
      const file = join(dir, `${name.replaceAll(' ', '-')}.db`);
      const holder = await holdWrite(file);
      const started = Date.now();
      const adapter = await open(file);
      // It could only read the file once the other process let go.
      expect(Date.now() - started).toBeGreaterThan(HOLD_MS / 3);
      await holder.exited;
      await adapter.close();
    });
  }
});
