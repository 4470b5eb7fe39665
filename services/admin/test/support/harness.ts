/**
 * The admin service as the test kit builds it: the real factory over the embedded adapters, real access
 * tokens, identity facts published as auth does, audit events published as every service does.
 */
import { auditMessage } from '@skald/contracts';
import type { AuditEntryInput, ServerRole, SiteRole } from '@skald/contracts';
import { createIdentityReadModel } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { buildTestService, waitFor } from '@skald/testing';
import type { SeedServer, TestService } from '@skald/testing';
import { createAdminServiceWith } from '../../src/testing.ts';

export type Harness = TestService;

export function createHarness(): Promise<Harness> {
  return buildTestService((deps) => createAdminServiceWith(deps), { service: 'admin' });
}

const directories = new WeakMap<Harness, Promise<IdentityReadModel>>();

/**
 * The site role auth would sign into the user's access token: the one the identity facts gave the account,
 * read from the service's own identity store (opened, not started: it joins no consumer group).
 */
async function siteRoleOf(h: Harness, userId: string): Promise<SiteRole | undefined> {
  let directory = directories.get(h);
  if (directory === undefined) {
    directory = createIdentityReadModel({ bus: h.deps.bus, docs: h.deps.docs, group: 'admin.identity' });
    directories.set(h, directory);
  }
  return (await (await directory).siteRoleOf(userId)) ?? undefined;
}

export async function getAs(h: Harness, url: string, userId: string | null) {
  if (userId === null) return h.inject({ method: 'GET', url });
  return h.injectAs({ id: userId, role: await siteRoleOf(h, userId) }, { method: 'GET', url });
}

/** Publishes a server and its members and waits until admin's read model knows each of them. */
export async function seedServer(h: Harness, server: SeedServer, members: Readonly<Record<string, ServerRole>> = {}): Promise<void> {
  await h.identity.server(server);
  for (const [userId, role] of Object.entries(members)) await h.identity.member(server.serverId, userId, role);
  const expected: [string, number][] = [[server.ownerId, 200], ...Object.entries(members).map(([userId, role]): [string, number] => [userId, role === 'user' ? 403 : 200])];
  for (const [userId, status] of expected) {
    await waitFor(
      async () => (await getAs(h, `/server/${encodeURIComponent(server.serverId)}/audit-logs`, userId)).statusCode === status,
      `${userId} on ${server.serverId} in admin's read model`,
    );
  }
}

let sequence = 0;

/** Publishes audit entries (defaults: a server action by u-owner now) and returns them as published. */
export async function publishAudit(h: Harness, ...entries: Partial<AuditEntryInput>[]): Promise<AuditEntryInput[]> {
  const full = entries.map((e) => {
    sequence += 1;
    return {
      actorId: 'u-owner',
      actorEmail: 'owner@example.com',
      serverId: 's1',
      action: 'server.renamed' as const,
      details: { from: 'a', to: `b${sequence}` },
      at: new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString(),
      ...e,
    };
  });
  await h.deps.bus.publish(full.map((e) => auditMessage(e)));
  return full;
}
