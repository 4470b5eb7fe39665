/**
 * The tier's maxWebhooks (libs/contracts tiers), read from the identity read model's tier facts as logs
 * and ingestion do. Enforced on create; delivery serves only the oldest `limit` webhooks of a server, so a
 * downgrade cannot keep more webhooks alive than the new tier pays for, and a suspended server gets none.
 */
import { tierOf } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';

export type ServerDirectory = Pick<IdentityReadModel, 'roleOf' | 'server'>;

export const WEBHOOKS_NOT_IN_TIER = 'Your plan does not include webhooks. Upgrade to add one.';
export const webhookLimitReached = (limit: number) => `You have reached your plan's limit of ${limit} webhook${limit === 1 ? '' : 's'}. Delete one or upgrade to add another.`;

export async function webhookLimitOf(directory: ServerDirectory, serverId: string): Promise<number> {
  const server = await directory.server(serverId);
  // An unknown server (read model not caught up) counts as free: it never grants more.
  return tierOf(server?.tier ?? 'free').maxWebhooks;
}

/** 403 when the server may not have one more webhook. */
export function assertRoomForOneMore(limit: number, count: number): void {
  if (limit <= 0) throw new HttpError(403, WEBHOOKS_NOT_IN_TIER);
  if (count >= limit) throw new HttpError(403, webhookLimitReached(limit));
}
