/**
 * MongoDB for the document-store and log-store suites: MONGO_URL if set, else a testcontainers MongoDB
 * when a container runtime answers within a few seconds, else null (the suite prints why it skips).
 */
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { getContainerRuntimeClient } from 'testcontainers';
import { describe, it } from 'vitest';

export interface TestMongo {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function mongoForTests(): Promise<TestMongo | null> {
  const fromEnv = process.env['MONGO_URL'];
  if (fromEnv !== undefined && fromEnv !== '') return { url: fromEnv, stop: async () => undefined };
  // Detect the runtime quickly: testcontainers would otherwise retry for a long time.
  const runtime = await withTimeout(
    getContainerRuntimeClient().then(
      () => true,
      () => false,
    ),
    5_000,
  );
  if (runtime !== true) return null;
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer('mongo:8').start();
  return {
    // directConnection: the container runs a single-node replica set addressed by its internal host name.
    url: `${container.getConnectionString()}?directConnection=true`,
    stop: async () => {
      await container.stop();
    },
  };
}

/**
 * Registers `register(url)`'s suites when MongoDB is at hand, followed by the container teardown;
 * otherwise prints why and registers a skipped placeholder (never a silent pass).
 */
export async function describeWithMongo(title: string, register: (url: string) => void): Promise<void> {
  const mongo = await mongoForTests();
  if (mongo === null) {
    console.log(`skipped: no container runtime (${title}; set MONGO_URL to run it)`);
    describe.skip(`${title} (skipped: no container runtime)`, () => {
      it('needs MONGO_URL or a container runtime', () => undefined);
    });
    return;
  }
  register(mongo.url);
  describe('mongo container teardown', () => {
    it('stops the container after the suite', async () => {
      await mongo.stop();
    });
  });
}

/** A fresh database per test keeps tests independent; drop() removes it afterwards. */
export function freshMongoDatabase(url: string, namePrefix: string): { readonly database: string; drop(): Promise<void> } {
  const database = `${namePrefix}${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    database,
    drop: async () => {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
