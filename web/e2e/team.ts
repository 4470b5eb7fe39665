// The set-up of the walks that need a server with people on it: the web app built, a fresh all-in-one server,
// Chromium, an owner with a server of their own, a member of that server with the user role, and the game
// server that logs to it. What each walk logs, and how long it waits for that, stays in the walk.
import type { Browser } from 'playwright-core';
import { addMember, apiAt, createServer, signUp, type Account, type WalkthroughApi } from './api.ts';
import { gameServer, type GameServer } from './game-server.ts';
import { buildWeb, startAllInOne, type RunningServer } from './server.ts';
import type { StoredSession } from './session.ts';
import { launchChromium } from './walk.ts';

export interface Team {
  server: RunningServer;
  api: WalkthroughApi;
  browser: Browser;
  ownerToken: string;
  memberToken: string;
  serverId: string;
  /** What a browser stores to be signed in as the owner, or the member, on the owner's server. */
  ownerSession: StoredSession;
  memberSession: StoredSession;
  /** Sends logs with the owner's server's API key. */
  game: GameServer;
  /** Closes the browser and stops the server. */
  stop(): Promise<void>;
}

export interface TeamPeople {
  owner: Account;
  /** Let into the owner's server with the user role. */
  member: Account;
  serverName: string;
}

/** Starts the server and the browser and signs the team up; if any step fails, what was started is stopped. */
export async function startTeam({ owner, member, serverName }: TeamPeople): Promise<Team> {
  buildWeb();
  const server = await startAllInOne();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const api = apiAt(server.baseUrl);
    const ownerToken = await signUp(api, owner);
    const memberToken = await signUp(api, member);
    const created = await createServer(api, ownerToken, serverName);
    await addMember(api, ownerToken, created.id, `${member.username}@example.com`, 'user');
    const started = browser;
    const onServer = { serverId: created.id, serverName: created.name };
    return {
      server,
      api,
      browser,
      ownerToken,
      memberToken,
      serverId: created.id,
      ownerSession: { token: ownerToken, ...onServer },
      memberSession: { token: memberToken, ...onServer },
      game: gameServer(server.baseUrl, created.api_key),
      async stop() {
        await started.close();
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.stop();
    throw error;
  }
}
