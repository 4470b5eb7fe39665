/**
 * Evidence cases over the real service (SQLite stores, file-system objects, real tokens): chosen logs copied
 * with their context and their photos (bytes in the case's own keys), kept when the logs go; members read,
 * owner/admin write, other tenants 404, no token 401; the tier's count; every change audited; the PDF holds
 * every line in any script and the photos.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CASE_CLOSED,
  CASE_FULL_OF_LOGS,
  CASE_LIMITS,
  CASE_NOT_FOUND,
  CASE_NOTHING_TO_CHANGE,
  CASE_NO_LOGS,
  CASE_TITLE_REQUIRED,
  CASE_TOO_MANY_LOGS,
  caseUnknownLogs,
  casesFull,
  tierOf,
} from '@skald/contracts';
import type { Case, CaseList, ServerUsage } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import { waitFor } from '@skald/testing';
import { NOW, createHarness, getAs, record, seedTenants, storedObjects } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { auditEntries, hasPdftotext, pdfText } from './support/exports.ts';

const S = 'srv-cases';
const OTHER = 'srv-cases-other';
let h: Harness;

type Method = 'POST' | 'PATCH' | 'DELETE' | 'GET';
function call(user: string | null, method: Method, url: string, payload?: Record<string, unknown>) {
  const request = { method, url, ...(payload ? { payload } : {}) };
  return user === null ? h.inject(request) : h.injectAs({ id: user }, request);
}

/** 40 logs a second apart; every 5th a photo with real image bytes (a PNG, a JPEG and a WebP in turn). */
async function seedLogs(serverId = S, count = 40): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${serverId}-log-${String(i).padStart(3, '0')}`;
    const createdAt = NOW - (count - i) * 1000;
    if (i % 5 === 0) {
      const format = (['png', 'jpeg', 'webp'] as const)[(i / 5) % 3]!;
      const image = await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 200, g: i * 5, b: 40 } } }).toFormat(format).toBuffer();
      const imageKey = `photos/${serverId}/${id}.${format}`;
      const thumbKey = `thumbs/${serverId}/${id}.webp`;
      await h.deps.objects.put(imageKey, image, `image/${format}`);
      await h.deps.objects.put(thumbKey, Buffer.from(`thumb ${i}`), 'image/webp');
      records.push(record(serverId, { id, createdAt, logType: 'photo', imageKey, thumbKey, message: `photo ${i}`, type: 'Screenshot' }));
    } else {
      records.push(record(serverId, { id, createdAt, message: `line ${i}`, level: i % 7 === 0 ? 'error' : 'info', metadata: { index: i } }));
    }
  }
  await h.deps.logStore.insertBatch(records);
  return records;
}

async function open(logIds: string[], over: Record<string, unknown> = {}, user = 'owner-1'): Promise<Case> {
  const res = await call(user, 'POST', '/cases', { serverId: S, title: 'Bank robbery', notes: 'Seen by two admins', logIds, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Case>();
}

const local = (path: string) => path.replace(/^\/api/, '');

beforeEach(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
});

afterEach(async () => {
  await h.close();
});

describe('opening a case', () => {
  it(`copies each chosen log with ${CASE_LIMITS.contextLines} lines of context a side, photos included, and answers it`, async () => {
    const logs = await seedLogs();
    const chosen = [logs[21]!.id, logs[3]!.id];
    const opened = await open(chosen);
    expect(opened).toMatchObject({ serverId: S, title: 'Bank robbery', notes: 'Seen by two admins', status: 'open', createdBy: 'owner-1', itemCount: 2 });
    // In the order the logs happened, each with its neighbours (log 3 has only 3 before it).
    expect(opened.items.map((i) => i.log.id)).toEqual([logs[3]!.id, logs[21]!.id]);
    expect(opened.items[0]!.before.map((l) => l.id)).toEqual(logs.slice(0, 3).map((l) => l.id));
    expect(opened.items[0]!.after.map((l) => l.id)).toEqual(logs.slice(4, 14).map((l) => l.id));
    expect(opened.items[1]!.before.map((l) => l.id)).toEqual(logs.slice(11, 21).map((l) => l.id));
    expect(opened.items[1]!.after.map((l) => l.id)).toEqual(logs.slice(22, 32).map((l) => l.id));
    expect(opened.items[1]!.log).toMatchObject({ message: 'line 21', level: 'error', metadata: { index: 21 }, log_type: 'text', image_path: null });
    // Photos 0, 5, 10 (both items' context), 15, 20, 25, 30: each copied once (full and thumbnail), into the case's own keys.
    const photos = [...opened.items.flatMap((i) => [...i.before, i.log, ...i.after])].filter((l) => l.log_type === 'photo');
    const copies = (await storedObjects(h)).filter((key) => key.startsWith(`cases/${opened.id}/`));
    expect(new Set(photos.map((p) => p.id)).size * 2).toBe(copies.length);
    expect(opened.bytes).toBeGreaterThan(0);
    const photo = photos[0]!;
    const served = await h.inject({ method: 'GET', url: local(photo.image_path!) });
    expect(served.statusCode).toBe(200);
    // The bytes of the case's copy are the original's.
    const original = (await h.deps.objects.list(`photos/${S}/${photo.id}.`))[0]!;
    expect(served.rawPayload.length).toBe(original.size);
  });

  it('keeps its evidence when the logs and their photos are removed', async () => {
    const logs = await seedLogs();
    const opened = await open([logs[5]!.id]);
    const cleanup = await call('owner-1', 'DELETE', `/logs/cleanup?serverId=${S}&days=0`);
    expect(cleanup.statusCode, cleanup.body).toBe(200);
    await waitFor(async () => (await storedObjects(h)).every((key) => !key.startsWith('photos/')), 'the photos to be removed');
    const read = await getAs(h, `/cases/${opened.id}`, 'user-1');
    expect(read.statusCode).toBe(200);
    const kept = read.json<Case>();
    expect(kept.items[0]!.log).toMatchObject({ id: logs[5]!.id, message: 'photo 5', log_type: 'photo' });
    expect(kept.items[0]!.before).toHaveLength(5);
    const image = await h.inject({ method: 'GET', url: local(kept.items[0]!.log.image_path!) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(image.rawPayload).metadata()).width).toBe(80);
  });

  it('refuses bad input with a sentence and copies nothing', async () => {
    const logs = await seedLogs();
    const ids = Array.from({ length: CASE_LIMITS.maxLogIds + 1 }, (_, i) => `id-${i}`);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '   ', logIds: [logs[1]!.id] }, CASE_TITLE_REQUIRED],
      [{ title: 'x', logIds: [] }, CASE_NO_LOGS],
      [{ title: 'x', logIds: ids }, CASE_TOO_MANY_LOGS],
      [{ title: 'x', logIds: [logs[1]!.id, 'nope'] }, caseUnknownLogs(['nope'])],
      // Another server's log is no log of this one.
      [{ title: 'x', logIds: [`${OTHER}-log-001`] }, caseUnknownLogs([`${OTHER}-log-001`])],
      [{ title: 'x' }, CASE_NO_LOGS],
    ];
    await seedLogs(OTHER, 3);
    for (const [body, sentence] of cases) {
      const res = await call('owner-1', 'POST', '/cases', { serverId: S, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(sentence);
    }
    expect((await storedObjects(h)).filter((k) => k.startsWith('cases/'))).toEqual([]);
    expect((await getAs(h, `/cases?serverId=${S}`, 'owner-1')).json<CaseList>().cases).toEqual([]);
  });

  it("keeps to the tier's count: the next is a 403 with a sentence, and a deletion frees a place", async () => {
    const logs = await seedLogs();
    const free = tierOf('free');
    const opened: Case[] = [];
    for (let i = 0; i < free.maxCases; i++) opened.push(await open([logs[i]!.id], { title: `case ${i}` }));
    const refused = await call('admin-1', 'POST', '/cases', { serverId: S, title: 'one more', logIds: [logs[9]!.id] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(casesFull(free.maxCases, free.label));
    expect((await call('owner-1', 'DELETE', `/cases/${opened[1]!.id}`)).statusCode).toBe(200);
    await open([logs[9]!.id], { title: 'after a deletion' }, 'admin-1');
    const list = (await getAs(h, `/cases?serverId=${S}`, 'user-1')).json<CaseList>();
    expect(list.maxCases).toBe(free.maxCases);
    expect(list.cases).toHaveLength(free.maxCases);
  });
});

describe('failures', () => {
  it('a copy that fails half-way answers 500 and leaves nothing: no case, no copied logs or photos, its place free', async () => {
    const logs = await seedLogs();
    const put = h.deps.objects.put.bind(h.deps.objects);
    let puts = 0;
    h.deps.objects.put = async (key, body, contentType) => {
      if (key.startsWith('cases/') && ++puts === 3) throw new Error('disk full');
      return put(key, body, contentType);
    };
    const res = await call('owner-1', 'POST', '/cases', { serverId: S, title: 'Half', logIds: [logs[10]!.id] });
    expect(res.statusCode).toBe(500);
    h.deps.objects.put = put;
    expect((await storedObjects(h)).filter((k) => k.startsWith('cases/'))).toEqual([]);
    const copies = await h.deps.docs.collection<{ _id: string }>('case_logs');
    expect(await copies.count({})).toBe(0);
    expect((await getAs(h, `/cases?serverId=${S}`, 'owner-1')).json<CaseList>().cases).toEqual([]);
    // Every place of the tier is still there.
    for (let i = 0; i < tierOf('free').maxCases; i++) await open([logs[i]!.id], { title: `case ${i}` });
  });

  it('the PDF says so where a photo copy cannot be read, and still holds every line', async (context) => {
    if (!(await hasPdftotext())) {
      console.log('skipped: pdftotext (poppler-utils) is not installed');
      context.skip();
    }
    const logs = await seedLogs();
    const opened = await open([logs[5]!.id]);
    const copies = (await storedObjects(h)).filter((k) => k.startsWith(`cases/${opened.id}/`) && k.includes('-full'));
    await h.deps.objects.put(copies[0]!, Buffer.from('not an image'), 'image/png');
    const res = await getAs(h, `/cases/${opened.id}/pdf`, 'owner-1');
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('(the photo could not be read)');
    for (const log of logs.slice(0, 16)) expect(text).toContain(log.message);
  });
});

describe('adding logs to a case', () => {
  it('copies the new chosen logs with their context into the case, each line once, and ignores logs already chosen', async () => {
    const logs = await seedLogs();
    const opened = await open([logs[10]!.id]);
    const res = await call('admin-1', 'POST', `/cases/${opened.id}/logs`, { logIds: [logs[16]!.id, logs[10]!.id, logs[2]!.id] });
    expect(res.statusCode, res.body).toBe(200);
    const grown = res.json<Case>();
    expect(grown.items.map((i) => i.log.id)).toEqual([logs[2]!.id, logs[10]!.id, logs[16]!.id]);
    expect(grown.items[2]!.before.map((l) => l.id)).toEqual(logs.slice(6, 16).map((l) => l.id));
    // Lines 0 .. 26 are in the case, each copied once; the 6 photos among them once each (full and thumbnail).
    const copies = await h.deps.docs.collection<{ _id: string; caseId: string }>('case_logs');
    expect(await copies.count({ caseId: opened.id })).toBe(27);
    const objects = (await storedObjects(h)).filter((key) => key.startsWith(`cases/${opened.id}/`));
    expect(objects).toHaveLength(6 * 2);
    expect(grown.bytes).toBeGreaterThan(opened.bytes);
    // Adding the same again changes nothing.
    const again = await call('owner-1', 'POST', `/cases/${opened.id}/logs`, { logIds: [logs[16]!.id] });
    expect(again.json<Case>().items).toHaveLength(3);
  });

  it('refuses a closed case, an unknown log, and more chosen logs than a case holds', async () => {
    const logs = await seedLogs();
    const opened = await open([logs[1]!.id]);
    const unknown = await call('owner-1', 'POST', `/cases/${opened.id}/logs`, { logIds: ['nope'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(caseUnknownLogs(['nope']));
    await h.deps.logStore.insertBatch(Array.from({ length: CASE_LIMITS.maxLogIds }, (_, i) => record(S, { id: `bulk-${i}`, createdAt: NOW - 500_000 + i })));
    const full = await call('owner-1', 'POST', `/cases/${opened.id}/logs`, { logIds: Array.from({ length: CASE_LIMITS.maxLogIds }, (_, i) => `bulk-${i}`) });
    expect(full.statusCode).toBe(400);
    expect(full.json().message).toBe(CASE_FULL_OF_LOGS);
    await call('owner-1', 'PATCH', `/cases/${opened.id}`, { status: 'closed' });
    const closed = await call('owner-1', 'POST', `/cases/${opened.id}/logs`, { logIds: [logs[2]!.id] });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(CASE_CLOSED);
    expect((await getAs(h, `/cases/${opened.id}`, 'owner-1')).json<Case>().items).toHaveLength(1);
    expect((await call('user-1', 'POST', `/cases/${opened.id}/logs`, { logIds: [logs[2]!.id] })).statusCode).toBe(403);
    expect((await call('stranger', 'POST', `/cases/${opened.id}/logs`, { logIds: [logs[2]!.id] })).statusCode).toBe(404);
  });
});

describe('who may do what', () => {
  it('members read; owner and admin write; a user gets 403, another tenant 404, no token 401', async () => {
    const logs = await seedLogs();
    const opened = await open([logs[1]!.id]);
    for (const user of ['owner-1', 'admin-1', 'user-1']) {
      const list = await getAs(h, `/cases?serverId=${S}`, user);
      expect(list.json<CaseList>().cases).toEqual([{ id: opened.id, title: 'Bank robbery', status: 'open', createdBy: 'owner-1', createdAt: new Date(NOW).toISOString(), itemCount: 1 }]);
      expect((await getAs(h, `/cases/${opened.id}`, user)).statusCode).toBe(200);
      expect((await getAs(h, `/cases/${opened.id}/pdf`, user)).statusCode).toBe(200);
    }
    const writes: [Method, string, Record<string, unknown>?][] = [
      ['POST', '/cases', { serverId: S, title: 'x', logIds: [logs[2]!.id] }],
      ['PATCH', `/cases/${opened.id}`, { status: 'closed' }],
      ['DELETE', `/cases/${opened.id}`],
    ];
    for (const [method, url, body] of writes) {
      expect((await call('user-1', method, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      const stranger = await call('stranger', method, url, body);
      expect(stranger.statusCode, `${method} ${url}`).toBe(404);
    }
    for (const url of [`/cases/${opened.id}`, `/cases/${opened.id}/pdf`]) {
      const stranger = await getAs(h, url, 'stranger');
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json().message).toBe(CASE_NOT_FOUND);
      expect((await getAs(h, url, null)).statusCode).toBe(401);
    }
    expect((await getAs(h, `/cases?serverId=${S}`, 'stranger')).statusCode).toBe(404);
    expect((await getAs(h, '/cases/no-such-case', 'owner-1')).statusCode).toBe(404);
    // Nothing changed.
    const read = (await getAs(h, `/cases/${opened.id}`, 'owner-1')).json<Case>();
    expect(read.status).toBe('open');
    expect((await getAs(h, `/cases?serverId=${S}`, 'owner-1')).json<CaseList>().cases).toHaveLength(1);
  });
});

describe('changing and deleting', () => {
  it('changes title, notes and status; refuses an empty change; deletes the copies with the case; audits each change', async () => {
    const logs = await seedLogs();
    const before = h.published.length;
    const opened = await open([logs[10]!.id]);
    const closed = await call('admin-1', 'PATCH', `/cases/${opened.id}`, { status: 'closed', notes: 'Banned for 7 days', title: '  Robbery  ' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<Case>()).toMatchObject({ status: 'closed', notes: 'Banned for 7 days', title: 'Robbery', itemCount: 1 });
    const empty = await call('admin-1', 'PATCH', `/cases/${opened.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(CASE_NOTHING_TO_CHANGE);
    const reopened = await call('owner-1', 'PATCH', `/cases/${opened.id}`, { status: 'open' });
    expect(reopened.json<Case>().status).toBe('open');
    expect((await storedObjects(h)).some((k) => k.startsWith(`cases/${opened.id}/`))).toBe(true);

    const removed = await call('owner-1', 'DELETE', `/cases/${opened.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await storedObjects(h)).filter((k) => k.startsWith('cases/'))).toEqual([]);
    expect((await getAs(h, `/cases/${opened.id}`, 'owner-1')).statusCode).toBe(404);
    expect((await call('owner-1', 'DELETE', `/cases/${opened.id}`)).statusCode).toBe(404);

    await waitFor(async () => auditEntries(h.published.slice(before)).filter((e) => e.action.startsWith('case.')).length >= 4, 'the case audit entries');
    const entries = auditEntries(h.published.slice(before)).filter((e) => e.action.startsWith('case.'));
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['case.created', 'owner-1'],
      ['case.updated', 'admin-1'],
      ['case.updated', 'owner-1'],
      ['case.deleted', 'owner-1'],
    ]);
    expect(entries.every((e) => e.serverId === S)).toBe(true);
    expect(entries[0]!.details).toMatchObject({ caseId: opened.id, title: 'Bank robbery', logIds: [logs[10]!.id] });
  });

  it("counts the evidence's bytes in the server's usage", async () => {
    const logs = await seedLogs();
    const usage = async () => (await getAs(h, `/server/usage/${S}`, 'user-1')).json<ServerUsage>();
    expect(await usage()).toMatchObject({ caseBytes: 0, maxCases: tierOf('free').maxCases });
    const a = await open([logs[5]!.id]);
    const b = await open([logs[30]!.id], { title: 'second' });
    expect(a.bytes).toBeGreaterThan(0);
    expect((await usage()).caseBytes).toBe(a.bytes + b.bytes);
    await call('owner-1', 'DELETE', `/cases/${a.id}`);
    expect((await usage()).caseBytes).toBe(b.bytes);
  });
});

const run = promisify(execFile);

async function pdfImageCount(pdf: Buffer): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-case-pdf-'));
  try {
    await writeFile(join(dir, 'case.pdf'), pdf);
    const { stdout } = await run('pdfimages', ['-list', join(dir, 'case.pdf')]);
    return stdout.trim().split('\n').length - 2;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the PDF', () => {
  it('holds the title, notes, every line with its fields and metadata in any script, and the photos', async (context) => {
    if (!(await hasPdftotext())) {
      console.log('skipped: pdftotext (poppler-utils) is not installed');
      context.skip();
    }
    const names = ['Иван Петров', 'Αλέξης Παπαδόπουλος', '王小明', 'たなか ゆき', '김민준'];
    const logs = await seedLogs();
    await h.deps.logStore.insertBatch(
      names.map((name, i) => record(S, { id: `named-${i}`, createdAt: NOW - 100 + i, message: `${name} robbed the bank`, resource: 'bank-heist', type: 'Robbery', level: 'warn', metadata: { player: name, i } })),
    );
    const opened = await open(['named-2', logs[25]!.id], { title: 'Ограбление · 银行 · Ληστεία', notes: 'Zeugen: 佐藤 und Ольга' });
    const res = await getAs(h, `/cases/${opened.id}/pdf`, 'user-1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''case-");
    const text = await pdfText(res.rawPayload);
    expect(text).not.toContain('?');
    expect(text).toContain('Ограбление · 银行 · Ληστεία');
    expect(text).toContain('Zeugen: 佐藤 und Ольга');
    for (const name of names) expect(text, name).toContain(`${name} robbed the bank`);
    expect(text).toContain(`"player":"${names[1]}"`);
    expect(text).toContain('WARN');
    expect(text).toContain('bank-heist');
    expect(text).toContain(new Date(NOW - 98).toISOString().replace('T', ' ').replace('Z', ' UTC'));
    // Photos 15, 20, 25, 30, 35 are in log 25's context (10 each side) and one more near the names: each embedded.
    const photoLines = [...opened.items.flatMap((i) => [...i.before, i.log, ...i.after])].filter((l) => l.log_type === 'photo').length;
    expect(photoLines).toBeGreaterThanOrEqual(5);
    expect(await pdfImageCount(res.rawPayload)).toBe(photoLines);
  });
});
