/**
 * Operator commands: `npm run skald -- <command> [args]` (node gateway/src/cli.ts ...).
 *
 *   users:promote <username> <role>   Set a user's site role (staff, moderator, admin, superadmin).
 *                                      On a fresh install this makes the first superadmin:
 *                                      npm run skald -- users:promote alice superadmin
 *
 * It reads the same configuration as the launcher (DATA_DIR, DOC_STORE, EVENT_BUS, ...): in all-in-one
 * it opens DATA_DIR/auth/documents.db and publishes the site-role and session-revocation events into the
 * bus journal (DATA_DIR/bus/journal.db), so every service's read model follows. The user's existing
 * tokens are revoked (the role travels in the token), so they sign in again to use the new role.
 */
import { loadConfig } from '@skald/config';
import { createDocumentStore, createEventBus, documentStoreConfig, eventBusConfig } from '@skald/adapters';
import { ALL_TOPICS, isSiteRole, SITE_ROLES } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import type { DocumentStore, EventBus } from '@skald/ports';

/** The auth service's promoteUser (services/auth/src/domain/site-roles.ts), loaded like the launcher loads services. */
type PromoteUser = (docs: DocumentStore, bus: EventBus, username: string, role: SiteRole) => Promise<{ readonly username: string } | null>;

const AUTH_PACKAGE = '@skald/auth-service';

async function loadPromoteUser(): Promise<PromoteUser> {
  const mod = (await import(AUTH_PACKAGE)) as Record<string, unknown>;
  const promote = mod['promoteUser'];
  if (typeof promote !== 'function') throw new Error(`${AUTH_PACKAGE} does not export promoteUser`);
  return promote as PromoteUser;
}

const USAGE = `Usage: npm run skald -- users:promote <username> <${SITE_ROLES.join('|')}>`;

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs one command; returns the process exit code. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = { out: console.log, err: console.error }): Promise<number> {
  const [command, username, role] = args;
  if (command !== 'users:promote') {
    io.err(USAGE);
    return 2;
  }
  if (username === undefined || username === '' || !isSiteRole(role)) {
    io.err(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const docs = await createDocumentStore(documentStoreConfig(config, 'auth'));
  const bus = await createEventBus(eventBusConfig(config));
  try {
    await bus.ensureTopics(ALL_TOPICS);
    const promoteUser = await loadPromoteUser();
    const user = await promoteUser(docs, bus, username, role);
    if (user === null) {
      io.err(`No user named "${username}". Register the account first (POST /api/auth/register or the web app).`);
      return 1;
    }
    io.out(`${user.username} is now ${role}. Their current sessions were signed out; they sign in again to use the new role.`);
    return 0;
  } finally {
    await bus.close();
    await docs.close();
  }
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
