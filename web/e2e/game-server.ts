// Logs and photo logs sent with a server's API key, as the game server sends them. A new key may take a
// moment to reach ingestion (401 until then), so a send retries until it is accepted; any other refusal
// fails the walk with the answer.
import sharp from 'sharp';
import { waitFor } from './api.ts';

export interface PhotoLog {
  message: string;
  level?: string;
  type?: string;
  resource?: string;
  metadata?: Record<string, unknown>;
  /** The screenshot's size (a solid blue PNG); 640x360 unless given. */
  width?: number;
  height?: number;
}

export interface GameServer {
  /** One log, or a batch of them in one request. */
  log(log: Record<string, unknown> | readonly Record<string, unknown>[]): Promise<void>;
  photo(photo: PhotoLog): Promise<void>;
}

export function gameServer(baseUrl: string, apiKey: string): GameServer {
  const post = async (path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<void> => {
    await waitFor(async () => {
      const res = await fetch(`${baseUrl}/api${path}`, { method: 'POST', headers: { 'X-API-Key': apiKey, ...headers }, body });
      const answer = `${res.status}: ${await res.text()}`;
      if (res.status !== 401 && res.status >= 300) throw new Error(`POST /api${path} answered ${answer}`);
      return res.status < 300;
    }, `POST /api${path} to be accepted`);
  };
  return {
    log: (log) => post('/logs', JSON.stringify(log), { 'Content-Type': 'application/json' }),
    async photo({ message, level = 'info', type = 'Screenshot', resource = 'screenshot-basic', metadata, width = 640, height = 360 }) {
      const png = await sharp({ create: { width, height, channels: 3, background: '#2f6fdb' } }).png().toBuffer();
      const form = new FormData();
      form.append('message', message);
      form.append('level', level);
      form.append('type', type);
      form.append('resource', resource);
      if (metadata !== undefined) form.append('metadata', JSON.stringify(metadata));
      form.append('photo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'shot.png');
      await post('/photologs', form);
    },
  };
}
