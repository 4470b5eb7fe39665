/**
 * Realistic FiveM logs for the storage benches: the shapes the Skald resource (integrations/fivem) sends for
 * its built-in player logs, and what servers send through it from ox_lib's logger (ox_inventory) and qb-log
 * (qb-core's money and item lines), in the proportions of a busy roleplay server:
 * - joins and leaves: `[JOIN] name joined the server`, metadata { player: { name, serverId, identifiers } }
 *   with license/discord/fivem/steam/xbl identifiers, a leave's reason;
 * - chat: `name: text`, metadata { player };
 * - deaths at warn: `[DEATH] victim was killed by killer (WEAPON_X)` with victim, killer, cause, weapon, its
 *   hash, killerType and a position, or `[DEATH] victim died`;
 * - money (qb-log's playermoney webhook): `**name (citizenid: ABC12345 | id: 12)** $500 (bank) added, new bank
 *   balance: 12500 reason: paycheck`, type AddMoney/RemoveMoney/SetMoney, resource qb-core;
 * - inventory (ox_lib logger from ox_inventory): `name gave 3x water to other`, `name bought 2x bread for $8`,
 *   `name swapped 1x weapon_pistol from drop 3`, with ox_lib's tags in metadata; resource ox_inventory.
 * Deterministic: batch `start` of a data set is the same whatever was generated before it (seeded per batch).
 */
import type { LogRecord } from '@skald/ports';

const DAY = 86_400_000;

interface Player {
  readonly name: string;
  readonly serverId: number;
  readonly identifiers: readonly string[];
  readonly citizenid: string;
}

const FIRST = ['Tony', 'Mia', 'Jay', 'Lola', 'Vince', 'Nina', 'Marcus', 'Ava', 'Dre', 'Kim', 'Sal', 'Rosa', 'Leo', 'Zoe', 'Max', 'Ivy', 'Ray', 'Jade', 'Gus', 'Tara'];
const LAST = ['Vercetti', 'Santos', 'Kowalski', 'Reyes', 'Nguyen', 'Black', 'Moreau', 'Okafor', 'Hale', 'Russo', 'Price', 'Diaz', 'Stone', 'Cruz', 'Wolfe'];
const WEAPONS: readonly [string, number][] = [
  ['WEAPON_PISTOL', 453432689],
  ['WEAPON_COMBATPISTOL', 1593441988],
  ['WEAPON_SMG', 736523883],
  ['WEAPON_CARBINERIFLE', 2210333304],
  ['WEAPON_KNIFE', 2578778090],
  ['WEAPON_BAT', 2508868239],
  ['WEAPON_RUN_OVER_BY_CAR', 2741846334],
];
const CHAT = [
  'anyone selling a car?', 'need a mechanic at legion square', 'lol', 'who wants to race', 'cops at the bank again',
  'gg', 'meet me at the pier', 'how do i get a job here', 'selling lockpicks dm me', 'server restart soon?',
  'brb', 'thanks for the help', 'is the hospital open', 'whats the discord link', 'ok', 'on my way',
];
const LEAVE_REASONS = ['Exiting', 'Disconnected.', 'Game crashed: gta5.exe!rage::fwEntity', 'Server shutting down: restart', 'Timed out after 60 seconds.'];
const ITEMS = ['water', 'bread', 'bandage', 'lockpick', 'phone', 'radio', 'weapon_pistol', 'ammo-9', 'money', 'burger', 'repairkit', 'armour'];
const MONEY_REASONS = ['paycheck', 'bought-vehicle', 'atm-withdraw', 'shop-purchase', 'job-payment', 'fine', 'bank-transfer', 'unknown'];
const MONEY_TYPES = ['cash', 'bank', 'crypto'];

/** xorshift32 seeded by `seed`. */
function random(seed: number): (n: number) => number {
  let s = (0x9e3779b9 ^ Math.imul(seed + 1, 0x85ebca6b)) >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

function hex(rand: (n: number) => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[rand(16)];
  return out;
}

function digits(rand: (n: number) => number, length: number): string {
  let out = String(1 + rand(9));
  for (let i = 1; i < length; i++) out += String(rand(10));
  return out;
}

/** The server's community: the same players (names and identifiers) come back all month. */
function community(size: number): Player[] {
  const rand = random(424242);
  return Array.from({ length: size }, (_, i) => {
    const identifiers = [`license:${hex(rand, 40)}`, `discord:${digits(rand, 18)}`, `fivem:${digits(rand, 7)}`];
    if (rand(2) === 0) identifiers.push(`steam:11000${hex(rand, 10)}`);
    if (rand(4) === 0) identifiers.push(`xbl:${digits(rand, 16)}`);
    const citizenid = Array.from({ length: 8 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'[rand(34)]).join('');
    return { name: `${FIRST[rand(FIRST.length)]} ${LAST[rand(LAST.length)]}`, serverId: 1 + (i % 256), identifiers, citizenid };
  });
}

const PLAYERS = community(1500);

function playerObject(p: Player): Record<string, unknown> {
  return { name: p.name, serverId: p.serverId, identifiers: p.identifiers };
}

type Line = Pick<LogRecord, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

function line(rand: (n: number) => number): Line {
  const p = PLAYERS[rand(PLAYERS.length)]!;
  const other = PLAYERS[rand(PLAYERS.length)]!;
  const kind = rand(100);
  if (kind < 8) return { level: 'info', type: 'Join', resource: 'skald', message: `[JOIN] ${p.name} joined the server`, metadata: { player: playerObject(p) } };
  if (kind < 15) {
    const reason = LEAVE_REASONS[rand(LEAVE_REASONS.length)]!;
    return { level: 'info', type: 'Leave', resource: 'skald', message: `[LEAVE] ${p.name} left the server (${reason})`, metadata: { player: playerObject(p), reason } };
  }
  if (kind < 40) return { level: 'info', type: 'Chat', resource: 'skald', message: `${p.name}: ${CHAT[rand(CHAT.length)]}`, metadata: { player: playerObject(p) } };
  if (kind < 48) {
    const position = { x: (rand(800_000) - 400_000) / 100, y: (rand(800_000) - 400_000) / 100, z: rand(10_000) / 100 };
    if (rand(3) === 0) return { level: 'warn', type: 'Death', resource: 'skald', message: `[DEATH] ${p.name} died`, metadata: { victim: playerObject(p), cause: 'none', killerType: rand(30), position } };
    const [weapon, weaponHash] = WEAPONS[rand(WEAPONS.length)]!;
    return {
      level: 'warn',
      type: 'Death',
      resource: 'skald',
      message: `[DEATH] ${p.name} was killed by ${other.name} (${weapon})`,
      metadata: { victim: playerObject(p), killer: playerObject(other), cause: 'player', weapon, weaponHash, killerType: 1, position },
    };
  }
  if (kind < 72) {
    const moneytype = MONEY_TYPES[rand(MONEY_TYPES.length)]!;
    const amount = 1 + rand(rand(10) === 0 ? 100_000 : 2_000);
    const removed = rand(2) === 0;
    return {
      level: 'info',
      type: removed ? 'RemoveMoney' : 'AddMoney',
      resource: 'qb-core',
      message: `**${p.name} (citizenid: ${p.citizenid} | id: ${p.serverId})** $${amount} (${moneytype}) ${removed ? 'removed' : 'added'}, new ${moneytype} balance: ${rand(500_000)} reason: ${MONEY_REASONS[rand(MONEY_REASONS.length)]}`,
      metadata: { webhook: 'playermoney', color: removed ? 'red' : 'lightgreen', citizenid: p.citizenid },
    };
  }
  const item = ITEMS[rand(ITEMS.length)]!;
  const count = 1 + rand(rand(5) === 0 ? 50 : 5);
  const action = rand(3);
  const message =
    action === 0 ? `${p.name} gave ${count}x ${item} to ${other.name}` : action === 1 ? `${p.name} bought ${count}x ${item} for $${count * (1 + rand(200))}` : `${p.name} swapped ${count}x ${item} from drop ${rand(500)}`;
  return {
    level: rand(50) === 0 ? 'error' : 'info',
    type: action === 0 ? 'giveItem' : action === 1 ? 'buyItem' : 'swapSlots',
    resource: 'ox_inventory',
    message,
    metadata: { player: playerObject(p), tags: [`item:${item}`, `count:${count}`, ...(action === 0 ? [`target:${other.citizenid}`] : [])] },
  };
}

/**
 * A UUIDv7 of `createdAt` (random bits from `rand`), as ingestion mints them. Not ingestion's uuidv7(): that one
 * is monotonic per process, so a data set generated after another (later) one would get ids of other times.
 */
function idOf(createdAt: number, rand: (n: number) => number): string {
  const h = `${createdAt.toString(16).padStart(12, '0')}7${hex(rand, 3)}${'89ab'[rand(4)]}${hex(rand, 15)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `count` logs, numbers start..start+count of a data set of `total` logs spread over `spanDays` from t0. */
export function fivemBatch(serverId: string, start: number, count: number, total: number, t0: number, spanDays = 30): LogRecord[] {
  const rand = random(start);
  const out = new Array<LogRecord>(count);
  for (let i = 0; i < count; i++) {
    const createdAt = t0 + Math.floor(((start + i) / total) * spanDays * DAY);
    out[i] = { id: idOf(createdAt, rand), serverId, createdAt, ...line(rand), logType: 'text', imageKey: null, thumbKey: null, expiresAt: createdAt + 60 * DAY };
  }
  return out;
}
