/**
 * Players (docs/PLAYERS.md, "Web"): the list and its search, the player page (a merged id goes on to its
 * survivor), the timeline's keyset pages, identifiers and names in a log card linking to their player, and
 * erasure after a typed confirmation for the owner only.
 */
import type { ApiLog, PlayerAnswer, PlayerDetail, PlayerErased, PlayerList, PlayerLogPage, PlayerRow, ServerRole } from '@skald/contracts/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useMeQuery } from '../src/features/auth/authApi.ts';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { metadataPieces } from '../src/features/logs/metadataText.ts';
import PlayerPage from '../src/features/players/PlayerPage.tsx';
import PlayersPage from '../src/features/players/PlayersPage.tsx';
import { useCurrentServerSync } from '../src/features/shell/useCurrentServerSync.ts';
import { apiLog, LEVELS, levelColors, meAnswer } from './fixtures.ts';
import { json, mockApi, renderInApp, SIGNED_IN } from './helpers.tsx';

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** What the shell does with a link's ?serverId= (AppShell's useCurrentServerSync). */
function ServerSync() {
  const { data } = useMeQuery(undefined);
  useCurrentServerSync(data?.servers);
  return null;
}

/** The players screens and /logs under one router, so links between them are followed. */
function renderAt(path: string, { serverSync = false } = {}) {
  renderInApp(
    <>
      {serverSync && <ServerSync />}
      <Routes>
        <Route path="/logs" element={<LogsPage />} />
        <Route path="/players" element={<PlayersPage />} />
        <Route path="/players/:playerId" element={<PlayerPage />} />
        <Route path="*" element={<div>elsewhere</div>} />
      </Routes>
      <LocationProbe />
    </>,
    { path, session: SIGNED_IN },
  );
}

const location = () => screen.getByTestId('location').textContent;

function requestsTo(seen: Request[], method: string, path: string): URL[] {
  return seen.filter((r) => r.method === method && new URL(r.url).pathname === `/api${path}`).map((r) => new URL(r.url));
}

function row(over: Partial<PlayerRow> = {}): PlayerRow {
  return {
    id: '1',
    name: 'Ann',
    names: ['Ann', 'Annie'],
    identifiers: ['license:aaa111', 'discord:1001'],
    firstSeen: '2026-01-01T10:00:00.000Z',
    lastSeen: '2026-01-02T10:00:00.000Z',
    logCount: 4,
    photoCount: 1,
    ...over,
  };
}

function detail(over: Partial<PlayerDetail> = {}): PlayerDetail {
  return {
    id: '1',
    name: 'Ann',
    names: [
      { name: 'Ann', firstSeen: '2026-01-01T12:00:00.000Z', lastSeen: '2026-01-02T10:00:00.000Z' },
      { name: 'Annie', firstSeen: '2026-01-01T10:00:00.000Z', lastSeen: '2026-01-01T11:00:00.000Z' },
    ],
    identifiers: [
      { identifier: 'license:aaa111', firstSeen: '2026-01-01T10:00:00.000Z', lastSeen: '2026-01-02T10:00:00.000Z' },
      { identifier: 'discord:1001', firstSeen: '2026-01-01T12:00:00.000Z', lastSeen: '2026-01-02T10:00:00.000Z' },
    ],
    firstSeen: '2026-01-01T10:00:00.000Z',
    lastSeen: '2026-01-02T10:00:00.000Z',
    logCount: 2,
    photoCount: 1,
    ...over,
  };
}

const settings = {
  'GET /settings/colors': () => json(levelColors()),
  'GET /settings/levels': () => json(LEVELS),
};

function playerApi({ role = 'owner', player = detail(), timeline = { logs: [], next: null } }: { role?: ServerRole; player?: PlayerAnswer; timeline?: PlayerLogPage } = {}) {
  return {
    ...settings,
    'GET /auth/me': () => json(meAnswer({ serverRole: role })),
    'GET /players/1': () => json(player),
    'GET /players/1/logs': () => json(timeline),
  };
}

describe('/players: list and search', () => {
  it('lists players with their names, identifiers and counts, and searches by name or identifier from page 1', async () => {
    const seen = mockApi({
      'GET /players': (request) => {
        const search = new URL(request.url).searchParams.get('search');
        if (search === 'aaa111') return json({ players: [row()], total: 1 } satisfies PlayerList);
        if (search === 'nobody') return json({ players: [], total: 0 } satisfies PlayerList);
        return json({ players: [row(), row({ id: '2', name: null, names: [], identifiers: ['steam:110000100000001'], logCount: 1, photoCount: 0 })], total: 60 } satisfies PlayerList);
      },
    });
    renderAt('/players');
    expect(screen.getByText('Loading players...')).toBeTruthy();
    const rows = await screen.findAllByTestId('player-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Ann' }).getAttribute('href')).toBe('/players/1');
    expect(within(rows[0]!).getByText('Also seen as: Annie')).toBeTruthy();
    expect(within(rows[0]!).getByText('license:aaa111')).toBeTruthy();
    expect(within(rows[0]!).getByText('4 logs · 1 photo log')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Unnamed player' })).toBeTruthy();
    expect(screen.getByText('60 players')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(Object.fromEntries(requestsTo(seen, 'GET', '/players')[0]!.searchParams)).toEqual({ serverId: 's1', page: '1', limit: '25' });

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(requestsTo(seen, 'GET', '/players').at(-1)!.searchParams.get('page')).toBe('2');

    // The value of an identifier without its kind; the search settles, then starts at page 1.
    fireEvent.change(screen.getByLabelText('Search players'), { target: { value: ' aaa111 ' } });
    await screen.findByText('1 player match “aaa111”');
    const searched = requestsTo(seen, 'GET', '/players').at(-1)!;
    expect(Object.fromEntries(searched.searchParams)).toEqual({ serverId: 's1', page: '1', limit: '25', search: 'aaa111' });
    expect(location()).toBe('/players?search=aaa111');

    fireEvent.change(screen.getByLabelText('Search players'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No players match this search.')).toBeTruthy();
  });

  it('says when no player was seen yet', async () => {
    mockApi({ 'GET /players': () => json({ players: [], total: 0 } satisfies PlayerList) });
    renderAt('/players');
    expect(await screen.findByText(/^No players yet\./)).toBeTruthy();
  });

  it('shows the error state', async () => {
    mockApi({ 'GET /players': () => json({ error: 'boom' }, { status: 500 }) });
    renderAt('/players');
    expect(await screen.findByText('Failed to load players. Check your server or connection.')).toBeTruthy();
  });
});

describe('/players/{id}', () => {
  it('shows the names and identifiers with first and last seen', async () => {
    mockApi(playerApi());
    renderAt('/players/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    const names = screen.getByTestId('player-names');
    expect(within(names).getAllByRole('listitem').map((li) => li.querySelector('.seen-value')!.textContent)).toEqual(['Ann', 'Annie']);
    expect(within(names).getAllByRole('listitem')[1]!.querySelectorAll('time')[0]!.getAttribute('dateTime')).toBe('2026-01-01T10:00:00.000Z');
    const identifiers = screen.getByTestId('player-identifiers');
    expect(within(identifiers).getByText('license:aaa111')).toBeTruthy();
    expect(within(identifiers).getByText('discord:1001')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Identifiers' })).toBeTruthy();
    expect(screen.getByText(/2 logs · 1 photo log/)).toBeTruthy();
  });

  it('goes on to the surviving player when the id was merged into it', async () => {
    const seen = mockApi({
      ...settings,
      'GET /auth/me': () => json(meAnswer()),
      'GET /players/9': () => json({ mergedInto: '1' } satisfies PlayerAnswer),
      'GET /players/1': () => json(detail()),
      'GET /players/1/logs': () => json({ logs: [], next: null } satisfies PlayerLogPage),
    });
    renderAt('/players/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    expect(location()).toBe('/players/1');
    expect(requestsTo(seen, 'GET', '/players/1')[0]!.searchParams.get('serverId')).toBe('s1');
    // The merged id's logs are never asked for: the timeline is the survivor's.
    expect(requestsTo(seen, 'GET', '/players/9/logs')).toHaveLength(0);
  });

  it("says 'Player not found' for an unknown id, and an error for a failure", async () => {
    mockApi({ ...playerApi(), 'GET /players/1': () => json({ error: 'Player not found' }, { status: 404 }) });
    renderAt('/players/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Player not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← All players' }).getAttribute('href')).toBe('/players');
  });
});

function timelineLog(i: number, extra: Partial<ApiLog> = {}): ApiLog {
  return apiLog({ id: `t${i}`, message: `log ${i}`, created_at: `2026-01-02T10:${String(60 - i).padStart(2, '0')}:00.000Z`, ...extra });
}

describe('the timeline', () => {
  it('pages older logs by the cursor, shows photo logs with their thumbnail, and filters by kind', async () => {
    const photo = timelineLog(2, { log_type: 'photo', message: 'crash photo', image_path: '/api/photologs/image/p2?t=full', thumb_path: '/api/photologs/image/p2?t=thumb' });
    const seen = mockApi({
      ...playerApi(),
      'GET /players/1/logs': (request) => {
        const query = new URL(request.url).searchParams;
        if (query.get('logType') === 'photo') return json({ logs: [photo], next: null } satisfies PlayerLogPage);
        if (query.get('before') === 'cursor-1') return json({ logs: [timelineLog(3)], next: null } satisfies PlayerLogPage);
        return json({ logs: [timelineLog(1), photo], next: 'cursor-1' } satisfies PlayerLogPage);
      },
    });
    renderAt('/players/1');
    const timeline = await screen.findByTestId('player-timeline');
    expect(within(timeline).getAllByTestId('log-card').map((card) => card.querySelector('.log-message')!.textContent)).toEqual(['log 1', 'crash photo']);
    expect(within(timeline).getByAltText('crash photo').getAttribute('src')).toBe('/api/photologs/image/p2?t=thumb');
    expect(Object.fromEntries(requestsTo(seen, 'GET', '/players/1/logs')[0]!.searchParams)).toEqual({ serverId: 's1', limit: '25' });

    fireEvent.click(screen.getByRole('button', { name: 'Load older logs' }));
    await waitFor(() => expect(within(timeline).getAllByTestId('log-card')).toHaveLength(3));
    expect(requestsTo(seen, 'GET', '/players/1/logs').at(-1)!.searchParams.get('before')).toBe('cursor-1');
    expect(screen.queryByRole('button', { name: 'Load older logs' })).toBeNull();
    expect(screen.getByText('That is all 3 logs.')).toBeTruthy();

    // The thumbnail opens the photo viewer on the full image.
    fireEvent.click(within(timeline).getByRole('button', { name: 'Open photo: crash photo' }));
    const viewer = screen.getByRole('dialog', { name: 'Photo viewer' });
    expect(viewer.querySelector('img')!.getAttribute('src')).toBe('/api/photologs/image/p2?t=full');
    fireEvent.keyDown(window, { key: 'Escape' });

    fireEvent.click(screen.getByText('Photo logs'));
    await waitFor(() => expect(screen.getByTestId('player-timeline').querySelectorAll('[data-testid="log-card"]')).toHaveLength(1));
    expect(requestsTo(seen, 'GET', '/players/1/logs').at(-1)!.searchParams.get('logType')).toBe('photo');
  });

  it('shows the empty and the error state', async () => {
    mockApi(playerApi());
    renderAt('/players/1');
    expect(await screen.findByText('No stored logs mention this player.')).toBeTruthy();
  });

  it("says the timeline failed when the player's logs cannot load", async () => {
    mockApi({ ...playerApi(), 'GET /players/1/logs': () => json({ error: 'boom' }, { status: 500 }) });
    renderAt('/players/1');
    expect(await screen.findByText("Failed to load the player's logs.")).toBeTruthy();
  });
});

describe('identifiers and names in a log card link to their player', () => {
  const metadata = {
    player: { name: 'Ann', identifiers: ['license:aaa111', 'discord:1001'] },
    victim: { playerName: 'Bob', license: 'LICENSE:bbb222' },
    bystander: { name: 'Cid', ip: 'ip:10.0.0.1' },
    steam: 'steam:110000100000001',
    note: 'license:aaa111 joined',
    count: 3,
    nested: [[], {}, null, true, 'x'],
  };

  it('cuts the metadata JSON into pieces that read exactly as JSON.stringify, linking only identifiers and names', () => {
    const pieces = metadataPieces(metadata);
    expect(pieces.map((piece) => piece.text).join('')).toBe(JSON.stringify(metadata, null, 2));
    expect(pieces.filter((piece) => piece.player !== undefined).map((piece) => [piece.text, piece.player])).toEqual([
      ['Ann', 'license:aaa111'],
      ['license:aaa111', 'license:aaa111'],
      ['discord:1001', 'discord:1001'],
      ['Bob', 'license:bbb222'],
      ['LICENSE:bbb222', 'license:bbb222'],
      // Cid stands beside an ip only, which makes no player: the ip links (its last player), the name does not.
      ['ip:10.0.0.1', 'ip:10.0.0.1'],
      ['steam:110000100000001', 'steam:110000100000001'],
    ]);
  });

  it('follows an identifier link from /logs to the player; a name beside only an ip and an identifier inside a text do not link', async () => {
    mockApi({
      ...playerApi(),
      'GET /logs/my': () => json([apiLog({ id: 'l1', message: 'Ann joined', metadata })], { headers: { 'X-Total-Count': '1' } }),
      'GET /logs/my/histogram': () => json({ error: 'not needed' }, { status: 500 }),
      'GET /players/by-identifier/discord%3A1001': () => json(detail()),
    });
    renderAt('/logs');
    const card = await screen.findByTestId('log-card');
    fireEvent.click(within(card).getByText('View metadata'));
    expect(within(card).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe('/players?serverId=s1&identifier=license%3Abbb222');
    expect(within(card).queryByRole('link', { name: 'Cid' })).toBeNull();
    expect(within(card).queryByRole('link', { name: /joined/ })).toBeNull();

    fireEvent.click(within(card).getByRole('link', { name: 'discord:1001' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    expect(location()).toBe('/players/1');
  });

  it("says 'Player not found' for an identifier no player of the server has", async () => {
    mockApi({ ...playerApi(), 'GET /players/by-identifier/steam%3A110000100000001': () => json({ error: 'Player not found' }, { status: 404 }) });
    renderAt('/players?identifier=steam%3A110000100000001');
    expect(await screen.findByRole('heading', { level: 1, name: 'Player not found' })).toBeTruthy();
    expect(screen.getByText('steam:110000100000001')).toBeTruthy();
  });
});

describe('an identifier link naming its server (?serverId=)', () => {
  const twoServers = () => {
    const me = meAnswer();
    return json({ ...me, servers: [...me.servers, { id: 's2', name: 'Beta', role: 'user' as const }] });
  };

  it('asks the linked server once the shell has selected it, when the user is a member', async () => {
    const seen = mockApi({
      ...playerApi(),
      'GET /auth/me': twoServers,
      'GET /players/by-identifier/license%3Accc333': () => json(detail()),
    });
    renderAt('/players?serverId=s2&identifier=license%3Accc333', { serverSync: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    expect(requestsTo(seen, 'GET', '/players/by-identifier/license%3Accc333').map((url) => url.searchParams.get('serverId'))).toEqual(['s2']);
  });

  it('asks the current server when the user is no member of the linked one', async () => {
    const seen = mockApi({
      ...playerApi(),
      'GET /players/by-identifier/license%3Accc333': () => json(detail()),
    });
    renderAt('/players?serverId=s9&identifier=license%3Accc333', { serverSync: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann' })).toBeTruthy();
    expect(requestsTo(seen, 'GET', '/players/by-identifier/license%3Accc333').map((url) => url.searchParams.get('serverId'))).toEqual(['s1']);
  });
});

describe('erasing a player', () => {
  it.each(['admin', 'user'] as const)('is not offered to a member with the role %s', async (role) => {
    mockApi(playerApi({ role }));
    renderAt('/players/1');
    await screen.findByRole('heading', { level: 1, name: 'Ann' });
    await screen.findByText('No stored logs mention this player.');
    expect(screen.queryByRole('button', { name: 'Erase player' })).toBeNull();
  });

  it('asks the owner to type ERASE, then erases, says how many logs went and returns to /players', async () => {
    const seen = mockApi({
      ...playerApi(),
      'DELETE /players/1': () => json({ erased: 3 } satisfies PlayerErased),
      'GET /players': () => json({ players: [], total: 0 } satisfies PlayerList),
    });
    renderAt('/players/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Erase player' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase Ann?' });
    const erase = within(dialog).getByRole('button', { name: 'Erase' }) as HTMLButtonElement;
    expect(erase.disabled).toBe(true);
    const input = within(dialog).getByLabelText('Type ERASE to confirm');
    fireEvent.change(input, { target: { value: 'erase' } });
    expect(erase.disabled).toBe(true);
    act(() => {
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    expect(requestsTo(seen, 'DELETE', '/players/1')).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'ERASE' } });
    expect(erase.disabled).toBe(false);
    fireEvent.click(erase);
    expect(await screen.findByText('Player erased: 3 logs deleted.')).toBeTruthy();
    await waitFor(() => expect(location()).toBe('/players'));
    const [sent] = requestsTo(seen, 'DELETE', '/players/1');
    expect(Object.fromEntries(sent!.searchParams)).toEqual({ serverId: 's1' });
  });

  it("shows the server's sentence when the erasure is refused", async () => {
    mockApi({ ...playerApi(), 'DELETE /players/1': () => json({ error: 'Only the server owner can erase a player.' }, { status: 403 }) });
    renderAt('/players/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Erase player' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase Ann?' });
    fireEvent.change(within(dialog).getByLabelText('Type ERASE to confirm'), { target: { value: 'ERASE' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    expect(await screen.findByText('Only the server owner can erase a player.')).toBeTruthy();
    expect(location()).toBe('/players/1');
  });
});
