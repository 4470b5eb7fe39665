/**
 * MongoDB for the document-store and log-store suites: MONGO_URL if set, else a testcontainers MongoDB
 * when a container runtime answers within a few seconds, else null (the suite prints why it skips).
 */
import { getContainerRuntimeClient } from 'testcontainers';

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
