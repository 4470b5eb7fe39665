import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { generatedStream, objectStoreContract } from '@skald/ports/contract/object-store.contract.ts';
import { createObjectStore } from '../src/object-store/index.ts';

objectStoreContract('fs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'skald-objects-'));
  const adapter = await createObjectStore({ kind: 'fs', root });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});

objectStoreContract('minio client against s3rver', async () => {
  const server = await startS3rver();
  // No configureBuckets: the adapter must create its bucket itself.
  const adapter = await createObjectStore({
    kind: 'minio',
    endPoint: '127.0.0.1',
    port: server.port,
    useSSL: false,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: `skald-test-${randomBytes(4).toString('hex')}`,
  });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      await server.stop();
    },
  };
});

/**
 * s3rver in a child process on a random loopback port, so its own buffers do not count
 * in the contract's memory measurement of the client side.
 */
async function startS3rver(): Promise<{ port: number; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'skald-s3rver-'));
  const child = spawn(process.execPath, [fileURLToPath(new URL('./object-store-s3rver.mjs', import.meta.url)), directory], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exitedEarly = once(child, 'exit').then(([code]) => {
    throw new Error(`s3rver child exited early with code ${String(code)}`);
  });
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout }), 'line'), exitedEarly])) as [string];
  const { port } = JSON.parse(line) as { port: number };
  return {
    port,
    stop: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const realMinio = await locateRealMinio();
if (realMinio) {
  objectStoreContract(`minio (${realMinio.label})`, async () => {
    const target = await realMinio.start();
    const adapter = await createObjectStore({ kind: 'minio', ...target.connection, bucket: `skald-test-${randomBytes(4).toString('hex')}` });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        await target.stop();
      },
    };
  });
} else {
  console.log('skipped: no container runtime (real MinIO object-store contract; set S3_ENDPOINT to run it)');
  describe.skip('ObjectStore contract: minio (real server)', () => {
    it.skip('needs S3_ENDPOINT or a container runtime', () => {});
  });
}

interface RealMinio {
  readonly label: string;
  start(): Promise<{
    connection: { endPoint: string; port: number; useSSL: boolean; accessKey: string; secretKey: string };
    stop(): Promise<void>;
  }>;
}

/** S3_ENDPOINT (+ S3_ACCESS_KEY / S3_SECRET_KEY) wins; otherwise a MinIO container if a runtime answers. */
async function locateRealMinio(): Promise<RealMinio | null> {
  const endpoint = process.env.S3_ENDPOINT;
  if (endpoint) {
    const url = new URL(endpoint);
    const useSSL = url.protocol === 'https:';
    return {
      label: 'S3_ENDPOINT',
      start: async () => ({
        connection: {
          endPoint: url.hostname,
          port: Number(url.port || (useSSL ? 443 : 80)),
          useSSL,
          accessKey: process.env.S3_ACCESS_KEY ?? 'minioadmin',
          secretKey: process.env.S3_SECRET_KEY ?? 'minioadmin',
        },
        stop: async () => {},
      }),
    };
  }
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
  } catch {
    return null;
  }
  return {
    label: 'testcontainers',
    start: async () => {
      const { MinioContainer } = await import('@testcontainers/minio');
      const container = await new MinioContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z').start();
      return {
        connection: { endPoint: container.getHost(), port: container.getPort(), useSSL: false, accessKey: container.getUsername(), secretKey: container.getPassword() },
        stop: async () => {
          await container.stop();
        },
      };
    },
  };
}

describe('fs object store specifics', () => {
  it('leaves no temp file after successful and failed uploads, and cleans stale temps at open', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skald-objects-'));
    try {
      const stale = join(root, 'tmp', 'crashed.part');
      await mkdir(join(root, 'tmp'), { recursive: true });
      await writeFile(stale, 'half');
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(stale, old, old);
      const store = await createObjectStore({ kind: 'fs', root });
      expect(await readdir(join(root, 'tmp'))).toEqual([]);
      await store.put('a/b.bin', generatedStream(300_000), 'application/octet-stream');
      await expect(store.put('a/c.bin', generatedStream(300_000, { failAfter: 100_000 }), 'application/octet-stream')).rejects.toThrow();
      expect(await readdir(join(root, 'tmp'))).toEqual([]);
      expect((await stat(join(root, 'objects', 'a~', 'b.bin'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('finds objects written by an earlier instance on the same root', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skald-objects-'));
    try {
      const first = await createObjectStore({ kind: 'fs', root });
      await first.put('backups/s1/2024.sql.gz', Buffer.from('dump'), 'application/gzip');
      await first.close();
      const second = await createObjectStore({ kind: 'fs', root });
      expect(await second.list('backups/')).toEqual([{ key: 'backups/s1/2024.sql.gz', size: 4, contentType: 'application/gzip' }]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
