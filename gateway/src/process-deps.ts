/** Key material and per-service dependencies, shared by the all-in-one and single-service launchers. */
import type { FastifyBaseLogger } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { createPaymentsFromConfig, createPlayerStoreFromConfig, createServiceDocumentStore } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import type { PlayerStore } from '@skald/ports';
import { createOutboundGuard, loadKeysFromFiles, loadOrCreateKeys } from '@skald/service-kit';
import type { KeyMaterial, ServiceDeps, ServiceName } from '@skald/service-kit';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

export interface ProcessKeys {
  readonly keys: KeyMaterial;
  readonly secretsKey: string;
}

/**
 * All-in-one: key files from the config if given, else generated once under DATA_DIR/keys.
 * Distributed: from the files (the private key only reaches the auth service).
 */
export function resolveKeys(config: SkaldConfig, service?: ServiceName): ProcessKeys {
  const identity = { issuer: config.jwt.issuer, audience: config.jwt.audience };
  if (config.mode === 'all-in-one' && !config.jwt.publicKeyFile) {
    const generated = loadOrCreateKeys(config.dataDir, identity);
    return { keys: generated.keys, secretsKey: config.secretsKey ?? generated.secretsKey };
  }
  const publicKeyFile = config.jwt.publicKeyFile;
  if (!publicKeyFile || !config.secretsKey) throw new Error('Invalid configuration: JWT_PUBLIC_KEY_FILE and SECRETS_KEY are required');
  const wantsPrivate = config.mode === 'all-in-one' || service === 'auth';
  const keys = loadKeysFromFiles(
    { publicKeyFile, ...(wantsPrivate && config.jwt.privateKeyFile ? { privateKeyFile: config.jwt.privateKeyFile } : {}) },
    identity,
  );
  return { keys, secretsKey: config.secretsKey };
}

export async function serviceDeps(
  config: SkaldConfig,
  service: ServiceName,
  shared: SharedAdapters,
  keys: ProcessKeys,
  log: FastifyBaseLogger,
): Promise<{ deps: ServiceDeps; close: () => Promise<void> }> {
  const docs = await createServiceDocumentStore(config, service);
  const playerStore = await playerStoreOf(config, service).catch(async (error: unknown) => {
    await docs.close();
    throw error;
  });
  const dataDir = join(config.dataDir, service);
  mkdirSync(dataDir, { recursive: true });
  const privateKeyPem = service === 'auth' ? keys.keys.privateKeyPem : undefined;
  // Only the auth service signs tokens; everyone else gets the public half only.
  const keyMaterial: KeyMaterial = {
    publicKeyPem: keys.keys.publicKeyPem,
    issuer: keys.keys.issuer,
    audience: keys.keys.audience,
    ...(privateKeyPem ? { privateKeyPem } : {}),
  };
  return {
    /** Closes what this call opened for the service (its document store, the logs service's player store). */
    close: async () => {
      try {
        await playerStore?.close();
      } finally {
        await docs.close();
      }
    },
    deps: {
      bus: shared.bus,
      docs,
      logStore: shared.logStore,
      objects: shared.objects,
      jobs: shared.jobs,
      counters: shared.counters,
      mailer: shared.mailer,
      keys: keyMaterial,
      log: log.child({ service }),
      publicUrl: config.publicUrl,
      dataDir,
      secretsKey: keys.secretsKey,
      outbound: createOutboundGuard({ allowed: config.outboundAllowedHosts }),
      // Only billing talks to the payment provider (and only it is given the Stripe key).
      ...(service === 'billing' ? { payments: await createPaymentsFromConfig(config) } : {}),
      ...(service === 'auth' ? { passwordHashing: config.passwordHashing } : {}),
      ...(service === 'webhooks' ? { webhookDelivery: config.webhookDelivery, alerts: config.alerts } : {}),
      ...(playerStore ? { playerStore } : {}),
    },
  };
}

/** The logs service's players live beside its logs; no other service gets them. */
async function playerStoreOf(config: SkaldConfig, service: ServiceName): Promise<PlayerStore | undefined> {
  return service === 'logs' ? createPlayerStoreFromConfig(config) : undefined;
}
