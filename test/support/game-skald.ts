/**
 * An all-in-one Skald for the game integration tests (FiveM resource, Minecraft appender): its own data
 * folder, one registered owner, servers whose keys ingestion already accepts, and their text logs read back
 * through the logs API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ApiLog, ApiLogList } from '@skald/contracts/api';
import { api, createServer, registerAndLogin } from './api-client.ts';
import { eventually, startSkald, waitForOk } from './processes.ts';
import type { SkaldProcess } from './processes.ts';

export interface GameSkald {
  readonly skald: SkaldProcess;
  readonly dataDir: string;
  /** The owner's token. */
  readonly token: string;
  /** A server whose key ingestion already accepts (it arrives through the identity events). */
  readyServer(name: string): Promise<{ id: string; api_key: string }>;
  /** Every text log of the server but the warm-ups, page by page (newest first). */
  textLogs(serverId: string): Promise<ApiLog[]>;
  /** The server's text logs once `count` of them are stored. */
  storedLogs(serverId: string, count: number): Promise<ApiLog[]>;
  /** Stops the process and removes its data folder. */
  stop(): Promise<void>;
}

/** Starts it; `name` names the data folder and the owner (`<name>owner`). */
export async function startGameSkald(name: string): Promise<GameSkald> {
  const dataDir = mkdtempSync(join(tmpdir(), `skald-${name}-`));
  // LOG_LEVEL stays at info: startSkald reads the port from the listening line, logged at that level.
  const skald = await startSkald('all-in-one', { TARGET: 'all', DATA_DIR: dataDir }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async (): Promise<void> => {
    await skald.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let token: string;
  try {
    await waitForOk(skald, '/api/health', 60_000);
    token = await registerAndLogin(skald.baseUrl, `${name}owner`);
  } catch (error) {
    await stop();
    throw error;
  }

  async function textLogs(serverId: string): Promise<ApiLog[]> {
    const all: ApiLog[] = [];
    for (let page = 1; ; page++) {
      const res = await api<ApiLogList>(skald.baseUrl, 'GET', `/api/logs/my?serverId=${serverId}&pageSize=250&page=${page}`, { token });
      expect(res.status).toBe(200);
      all.push(...res.body.filter((l) => l.type !== 'Setup'));
      if (res.body.length < 250) return all;
    }
  }

  return {
    skald,
    dataDir,
    token,
    async readyServer(serverName) {
      const server = await createServer(skald.baseUrl, token, serverName);
      await eventually('the API key accepted', async () => {
        const res = await api(skald.baseUrl, 'POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, body: { message: 'warm-up', type: 'Setup' } });
        return res.status === 201 ? true : undefined;
      });
      return server;
    },
    textLogs,
    storedLogs: (serverId, count) =>
      eventually(`${count} logs stored`, async () => {
        // Paged newest first while logs still arrive: a page can repeat logs of the one before (a read once
        // counted 2,500 rows that held 2,000 logs), so only distinct ids count.
        const all = [...new Map((await textLogs(serverId)).map((log) => [log.id, log])).values()];
        return all.length >= count ? all : undefined;
      }),
    stop,
  };
}

/** The one stored log with this message (the failure lists every message there is). */
export function oneLog(logs: readonly ApiLog[], message: string): ApiLog {
  const found = logs.filter((l) => l.message === message);
  expect(found.map((l) => l.message), `one log "${message}" among:\n${logs.map((l) => l.message).join('\n')}`).toEqual([message]);
  return found[0]!;
}
