/**
 * Backup settings (docs/spec/part-1.txt sections 3, 5): defaults, saving without contacting the database, the password sealed
 * at rest and never answered, an empty password keeping the stored one, validation with clear 400s, the
 * outbound guard refusing internal hosts at save, and the audit entry without credentials.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOPICS } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import { callAs, createHarness, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-settings';
const OWNER = 'owner-1';
const PASSWORD = 'hunter2-Sup3r-s3cret!';
let h: Harness;

const body = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  interval_hours: 12,
  db_host: 'db.example.com',
  db_port: 3307,
  db_user: 'skald_ro',
  db_pass_enc: PASSWORD,
  db_name: 'es_extended',
  ...overrides,
});

const save = (payload: unknown) => callAs(h, 'POST', `/backups/${S}/settings`, OWNER, payload);
const read = () => callAs(h, 'GET', `/backups/${S}/settings`, OWNER);

beforeEach(async () => {
  // An allow-list of one name: the tests' public-looking host saves without real DNS, everything private stays refused.
  h = await createHarness({}, { overrides: { outbound: createOutboundGuard({ allowed: ['db.example.com'] }) } });
  await seedServer(h, { serverId: S, ownerId: OWNER, tier: 'starter' });
});

afterEach(async () => {
  await h.close();
});

describe('backup settings', () => {
  it('answers the defaults before anything is saved, with the tier maxBackups', async () => {
    const res = await read();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: false, interval_hours: 24, db_host: '', db_port: 3306, db_user: '', db_name: '', maxBackups: 3, has_password: false });
  });

  it('saves without contacting the database, seals the password and never answers it', async () => {
    const res = await save(body());
    expect(res.statusCode).toBe(200);
    const expected = { enabled: true, interval_hours: 12, db_host: 'db.example.com', db_port: 3307, db_user: 'skald_ro', db_name: 'es_extended', maxBackups: 3, has_password: true };
    expect(res.json()).toEqual(expected);
    expect((await read()).json()).toEqual(expected);
    expect(res.body).not.toContain(PASSWORD);
    // At rest: the document store file holds no plaintext password.
    const stored = await readFile(join(h.deps.root, 'backups', 'documents.db'));
    expect(stored.includes(Buffer.from(PASSWORD))).toBe(false);
  });

  it('keeps the stored password when the field is empty or absent, replaces it when entered', async () => {
    await save(body());
    const { db_pass_enc: _omitted, ...withoutPassword } = body();
    void _omitted;
    expect((await save({ ...withoutPassword, db_user: 'other' })).json()).toMatchObject({ has_password: true, db_user: 'other' });
    expect((await save(body({ db_pass_enc: '' }))).json()).toMatchObject({ has_password: true });
  });

  it('defaults the port to 3306 when it is left out', async () => {
    const { db_port: _port, ...withoutPort } = body({ enabled: false });
    void _port;
    expect((await save(withoutPort)).json()).toMatchObject({ db_port: 3306 });
  });

  it.each([
    [{ interval_hours: 0 }, 'The interval must be at least 1 hour.'],
    [{ interval_hours: '24' }, 'Interval must be a number.'],
    [{ db_port: 0 }, 'Database port must be at least 1.'],
    [{ db_port: 70000 }, 'Database port must be at most 65535.'],
    [{ db_host: 'x;id' }, 'Database host must be a host name or an IP address.'],
    [{ db_host: 'db.example.com/path' }, 'Database host must be a host name or an IP address.'],
    [{ db_name: 'a\u0000b' }, 'Database name must not contain control characters.'],
    [{ enabled: true, db_user: '' }, 'Scheduled backups need the database host, user and name'],
    [{ tier: 'legend' }, 'Unknown field: tier.'],
  ])('refuses %j with 400 %s and changes nothing', async (overrides, message) => {
    const res = await save(body(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect((await read()).json()).toMatchObject({ db_host: '', has_password: false });
  });

  it.each(['127.0.0.1', 'localhost', '10.0.0.5', '169.254.169.254', '[::1]', '192.168.1.10'])(
    'refuses the internal host %s at save (empty allow-list)',
    async (host) => {
      const res = await save(body({ db_host: host }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/is not allowed/);
      expect(res.body).not.toContain(PASSWORD);
      expect((await read()).json()).toMatchObject({ db_host: '' });
    },
  );

  it('publishes an audit entry without the password or the database user', async () => {
    await save(body());
    await expect.poll(() => h.published.filter((m) => m.topic === TOPICS.audit).length).toBeGreaterThan(0);
    const text = JSON.stringify(h.published.filter((m) => m.topic === TOPICS.audit).map((m) => m.payload));
    expect(text).toContain('backup.settings-saved');
    expect(text).toContain('"password_changed":true');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('skald_ro');
  });
});
