/**
 * Operator commands: `npm run skald -- <command> [args]` (node gateway/src/cli.ts ...).
 *
 *   users:promote <username> <role>   Set a user's site role (user, moderator, admin, superadmin).
 *                                      On a fresh install this makes the first superadmin:
 *                                      npm run skald -- users:promote alice superadmin
 *   servers:tier <serverId> <tier>     Set a server's tier (free ... legend) as staff do in the admin area:
 *                                      the billing service's store records it and server.tier-changed goes
 *                                      out with an audit entry (actor cli), so quotas and limits follow.
 *                                      It holds until Stripe asks for another tier (docs/BILLING.md).
 *
 * It reads the same configuration as the launcher (DATA_DIR, DOC_STORE, EVENT_BUS, ...): in all-in-one
 * it opens DATA_DIR/auth/documents.db and publishes the site-role and session-revocation events into the
 * bus journal (DATA_DIR/bus/journal.db), so every service's read model follows. The user's existing
 * tokens are revoked (the role travels in the token), so they sign in again to use the new role.
 * servers:tier opens DATA_DIR/billing/documents.db (MongoDB skald_billing when distributed) the same way.
 */
import { loadConfig } from '@skald/config';
import { createDocumentStore, createEventBus, documentStoreConfig, eventBusConfig } from '@skald/adapters';
import { ALL_TOPICS, isSiteRole, isTierKey, SITE_ROLES, TIER_KEYS } from '@skald/contracts';
import type { SiteRole, TierKey } from '@skald/contracts';
import type { DocumentStore, EventBus } from '@skald/ports';

/** The auth service's promoteUser (services/auth/src/domain/site-roles.ts), loaded like the launcher loads services. */
type PromoteUser = (docs: DocumentStore, bus: EventBus, username: string, role: SiteRole) => Promise<{ readonly username: string } | null>;

/** The billing service's setServerTierFromCli (services/billing/src/domain/tier-command.ts). */
type SetServerTier = (docs: DocumentStore, bus: EventBus, serverId: string, tier: TierKey) => Promise<{ readonly tier: TierKey } | null>;

/** A function a service package exports for the commands, loaded by package name (the launcher's way). */
async function loadExport<T>(pkg: string, name: string): Promise<T> {
  const mod = (await import(pkg)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== 'function') throw new Error(`${pkg} does not export ${name}`);
  return fn as T;
}

const USAGE = [
  'Usage:',
  `  npm run skald -- users:promote <username> <${SITE_ROLES.join('|')}>`,
  `  npm run skald -- servers:tier <serverId> <${TIER_KEYS.join('|')}>`,
].join('\n');

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Opens a service's document store and the bus from the configuration, runs `work`, closes both. */
async function withServiceStore<T>(env: NodeJS.ProcessEnv, service: 'auth' | 'billing', work: (docs: DocumentStore, bus: EventBus) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const docs = await createDocumentStore(documentStoreConfig(config, service));
  const bus = await createEventBus(eventBusConfig(config));
  try {
    await bus.ensureTopics(ALL_TOPICS);
    return await work(docs, bus);
  } finally {
    await bus.close();
    await docs.close();
  }
}

async function promote(username: string, role: SiteRole, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  return withServiceStore(env, 'auth', async (docs, bus) => {
    const promoteUser = await loadExport<PromoteUser>('@skald/auth-service', 'promoteUser');
    const user = await promoteUser(docs, bus, username, role);
    if (user === null) {
      io.err(`No user named "${username}". Register the account first (POST /api/auth/register or the web app).`);
      return 1;
    }
    io.out(`${user.username} is now ${role}. Their current sessions were signed out; they sign in again to use the new role.`);
    return 0;
  });
}

async function setTier(serverId: string, tier: TierKey, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  return withServiceStore(env, 'billing', async (docs, bus) => {
    const setServerTier = await loadExport<SetServerTier>('@skald/billing-service', 'setServerTierFromCli');
    const state = await setServerTier(docs, bus, serverId, tier);
    if (state === null) {
      io.err(`No server with id "${serverId}" in the billing service's records. Check the id (GET /api/auth/me lists a user's servers).`);
      return 1;
    }
    io.out(`Server ${serverId} is now on the ${tier} tier. Ingestion quotas and limits follow within seconds.`);
    return 0;
  });
}

/** Runs one command; returns the process exit code. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = { out: console.log, err: console.error }): Promise<number> {
  const [command, first, second] = args;
  if (command === 'users:promote' && first !== undefined && first !== '' && isSiteRole(second)) return promote(first, second, env, io);
  if (command === 'servers:tier' && first !== undefined && first !== '' && isTierKey(second)) return setTier(first, second, env, io);
  io.err(USAGE);
  return 2;
}

if (import.meta.main) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
