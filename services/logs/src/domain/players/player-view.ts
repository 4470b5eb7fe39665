/** Players in their API shapes (libs/contracts/src/api/players.ts): ISO times, the list row's plain lists. */
import type { PlayerDetail as ApiPlayerDetail, PlayerRow } from '@skald/contracts';
import type { PlayerDetail, PlayerSummary } from '@skald/ports';

const iso = (ms: number): string => new Date(ms).toISOString();

function countsOf(player: PlayerSummary | PlayerDetail) {
  return {
    id: player.id,
    name: player.name,
    firstSeen: iso(player.firstSeen),
    lastSeen: iso(player.lastSeen),
    logCount: player.logCount,
    photoCount: player.photoCount,
  };
}

export function toPlayerRow(player: PlayerSummary): PlayerRow {
  return { ...countsOf(player), names: [...player.names], identifiers: [...player.identifiers] };
}

export function toPlayerDetail(player: PlayerDetail): ApiPlayerDetail {
  return {
    ...countsOf(player),
    names: player.names.map((seen) => ({ name: seen.name, firstSeen: iso(seen.firstSeen), lastSeen: iso(seen.lastSeen) })),
    identifiers: player.identifiers.map((seen) => ({ identifier: seen.identifier, firstSeen: iso(seen.firstSeen), lastSeen: iso(seen.lastSeen) })),
  };
}
