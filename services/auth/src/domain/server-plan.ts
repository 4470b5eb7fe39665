/**
 * Tier and suspension are decided elsewhere (billing, admin) and published on the identity topic; the
 * auth service applies them to its own server records (the tier sets the member limit). Applying is
 * setting a full value, so a redelivered or repeated event changes nothing, and nothing is published.
 */
import type { ServerSuspensionChanged, ServerTierChanged } from '@skald/contracts';
import type { AuthStore } from './store.ts';

export async function applyConsumedTier(store: Pick<AuthStore, 'servers'>, change: ServerTierChanged): Promise<void> {
  await store.servers.updateOne({ _id: change.serverId }, { $set: { tier: change.tier } });
}

export async function applyConsumedSuspension(store: Pick<AuthStore, 'servers'>, change: ServerSuspensionChanged): Promise<void> {
  await store.servers.updateOne({ _id: change.serverId }, { $set: { suspended: change.suspended } });
}
