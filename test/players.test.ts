/**
 * The player view end to end in the all-in-one (gateway, auth, ingestion, logs): logs sent by a game
 * server through the native API, a compatible dialect (Loki, as ox_lib pushes) and a photo upload become
 * players at storage; the player's timeline answers them with the photo's signed image; erasure removes
 * the logs and the photo's objects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { PlayerDetail, PlayerList, PlayerLogPage } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { bearer, multipartForm, startAllInOne } from '../gateway/test/support/all-in-one.ts';
import type { AllInOne } from '../gateway/test/support/all-in-one.ts';

let aio: AllInOne;
let token: string;
let serverId: string;
let key: string;

beforeAll(async () => {
  aio = await startAllInOne({ logLevel: 'warn' });
  token = (await aio.signUp('playersowner')).token;
  const server = await aio.createServer(token, 'Players RP');
  serverId = server.id;
  key = server.api_key;
  await waitFor(async () => (await aio.inject({ method: 'GET', url: `/api/players?serverId=${serverId}`, headers: bearer(token) })).statusCode === 200, 'logs knows the server');
}, 60_000); // starts the all-in-one and seeds a server

afterAll(async () => {
  await aio?.close();
});

const get = async <T>(url: string): Promise<T> => {
  const res = await aio.inject({ method: 'GET', url, headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
};

describe('players from every route', () => {
  it('extracts players from native, Loki and photo logs, and erases one with its photo objects', async () => {
    const native = await aio.inject({
      method: 'POST',
      url: '/api/logs',
      headers: { 'x-api-key': key },
      payload: {
        level: 'info',
        type: 'Death',
        message: 'Alice was killed by Bob at the bank',
        metadata: { victim: { name: 'Alice', identifiers: ['license:a11ce', 'discord:1001'] }, killer: { name: 'Bob', identifiers: ['license:b0b'] } },
      },
    });
    expect(native.statusCode).toBe(201);
    // ox_lib's Loki provider: labels, and the values unpacked from the JSON line into metadata.
    const line = JSON.stringify({ message: 'Bob bought a pistol', playerName: 'Bobby', identifiers: ['LICENSE:b0b', 'steam:110000b0b'] });
    const loki = await aio.inject({
      method: 'POST',
      url: '/api/loki/api/v1/push',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`skald:${key}`).toString('base64')}` },
      payload: JSON.stringify({ streams: [{ stream: { resource: 'ox_inventory', event: 'purchase' }, values: [[`${Date.now()}000000`, line]] }] }),
    });
    expect(loki.statusCode).toBe(204);
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3a6' } }).png().toBuffer();
    const form = multipartForm([
      { name: 'photo', filename: 'shot.png', type: 'image/png', data: png },
      { name: 'message', value: 'Screenshot of Bob' },
      { name: 'metadata', value: JSON.stringify({ player: { name: 'Bob', identifiers: ['license:b0b'] } }) },
    ]);
    const photo = await aio.inject({ method: 'POST', url: '/api/photologs', headers: { 'x-api-key': key, ...form.headers }, payload: form.payload });
    expect(photo.statusCode).toBe(201);

    let bob: PlayerDetail | undefined;
    await waitFor(async () => {
      const found = await aio.inject({ method: 'GET', url: `/api/players/by-identifier/license:b0b?serverId=${serverId}`, headers: bearer(token) });
      bob = found.statusCode === 200 ? found.json<PlayerDetail>() : undefined;
      return bob !== undefined && bob.logCount === 2 && bob.photoCount === 1;
    }, "Bob's three logs recorded");
    expect(bob!.names.map((seen) => seen.name).sort()).toEqual(['Bob', 'Bobby']);
    expect(bob!.identifiers.map((seen) => seen.identifier).sort()).toEqual(['license:b0b', 'steam:110000b0b']);

    const list = await get<PlayerList>(`/api/players?serverId=${serverId}`);
    expect(list.total).toBe(2);
    expect(list.players.map((player) => player.name).sort()).toEqual(['Alice', 'Bob']);
    expect((await get<PlayerList>(`/api/players?serverId=${serverId}&search=110000b0b`)).players.map((player) => player.id)).toEqual([bob!.id]);

    const timeline = await get<PlayerLogPage>(`/api/players/${bob!.id}/logs?serverId=${serverId}`);
    expect(timeline.logs.map((log) => log.message).sort()).toEqual(['Alice was killed by Bob at the bank', 'Bob bought a pistol', 'Screenshot of Bob']);
    const shot = timeline.logs.find((log) => log.log_type === 'photo')!;
    const image = await aio.inject({ method: 'GET', url: shot.image_path! });
    expect(image.statusCode).toBe(200);

    const erased = await aio.inject({ method: 'DELETE', url: `/api/players/${bob!.id}?serverId=${serverId}`, headers: bearer(token) });
    expect([erased.statusCode, erased.json()]).toEqual([200, { erased: 3 }]);
    expect((await aio.inject({ method: 'GET', url: shot.image_path! })).statusCode).toBe(404);
    expect(await get<unknown[]>(`/api/logs/my/combined?serverId=${serverId}`)).toEqual([]);
    // Alice was only in the erased kill log: she is gone with it.
    expect(await get<PlayerList>(`/api/players?serverId=${serverId}`)).toEqual({ players: [], total: 0 });
  });
});
