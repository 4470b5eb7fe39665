/**
 * What the backups service reads from its identity read model (built from identity events in its own
 * store): members' roles (the routes' owner guard) and a server's tier, whose maxBackups bounds the runs.
 */
import { tierOf } from '@skald/contracts';
import type { IdentityReadModel } from '@skald/service-kit';

export type ServerDirectory = Pick<IdentityReadModel, 'roleOf' | 'server'>;

/** The tier's number of backups kept; an unknown server (read model behind) counts as free: none. */
export async function maxBackupsOf(directory: ServerDirectory, serverId: string): Promise<number> {
  return tierOf((await directory.server(serverId))?.tier ?? 'free').maxBackups;
}
