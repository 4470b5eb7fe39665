/**
 * The backups service as the test kit builds it: the real factory over the embedded adapters, real access
 * tokens, servers and memberships published as identity events and awaited in the service's own read
 * model. The outbound guard allows the machine's MariaDB (127.0.0.1) unless a test passes its own.
 */
import { buildTestService, waitFor } from '@skald/testing';
import type { SeedServer, TestService, TestServiceOptions } from '@skald/testing';
import type { ApiBackup, BackupSettingsBody, ServerRole } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import type { ServiceModule } from '@skald/service-kit';
import { createBackupsServiceWith } from '../../src/backups-service.ts';
import type { BackupsServiceOptions } from '../../src/backups-service.ts';
import { MARIADB } from './game-database.ts';

export type Harness = TestService<ServiceModule>;

export async function createHarness(options: BackupsServiceOptions = {}, testOptions: TestServiceOptions = {}): Promise<Harness> {
  return buildTestService((deps) => createBackupsServiceWith(deps, options), {
    service: 'backups',
    overrides: { outbound: createOutboundGuard({ allowed: ['127.0.0.1'] }) },
    ...testOptions,
  });
}

type Method = 'GET' | 'POST' | 'DELETE';

/** A request as `userId` (with a real access token), or without any token when userId is null. */
export function callAs(h: Harness, method: Method, url: string, userId: string | null, payload?: unknown) {
  const request = { method, url, ...(payload === undefined ? {} : { payload: payload as object }) };
  return userId === null ? h.inject(request) : h.injectAs({ id: userId }, request);
}

/** Publishes a server and its members and waits until the service's read model knows each of them. */
export async function seedServer(h: Harness, server: SeedServer, members: Readonly<Record<string, ServerRole>> = {}): Promise<void> {
  await h.identity.server(server);
  for (const [userId, role] of Object.entries(members)) await h.identity.member(server.serverId, userId, role);
  await waitFor(async () => (await callAs(h, 'GET', `/backups/${server.serverId}`, server.ownerId)).statusCode === 200, `${server.serverId} in the backups read model`);
  for (const userId of Object.keys(members)) {
    await waitFor(async () => (await callAs(h, 'GET', `/backups/${server.serverId}`, userId)).statusCode !== 404, `${userId} on ${server.serverId}`);
  }
}

/** Settings pointing at a database of the local MariaDB. */
export function localSettings(database: string, overrides: Partial<BackupSettingsBody> = {}): BackupSettingsBody {
  return { enabled: false, interval_hours: 24, db_host: MARIADB.host, db_port: MARIADB.port, db_user: MARIADB.user, db_pass_enc: '', db_name: database, ...overrides };
}

export async function listBackups(h: Harness, serverId: string, ownerId: string): Promise<ApiBackup[]> {
  return (await callAs(h, 'GET', `/backups/${serverId}`, ownerId)).json<ApiBackup[]>();
}

/** Waits until the backup has finished (done or failed) and answers it. */
export async function finished(h: Harness, serverId: string, ownerId: string, backupId: string, timeoutMs = 20_000): Promise<ApiBackup> {
  let found: ApiBackup | undefined;
  await waitFor(
    async () => {
      found = (await listBackups(h, serverId, ownerId)).find((b) => b.id === backupId);
      return found !== undefined && found.status !== 'running';
    },
    `backup ${backupId} to finish`,
    timeoutMs,
  );
  return found!;
}
