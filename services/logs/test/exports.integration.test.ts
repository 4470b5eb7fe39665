/**
 * Exports: CSV parsed back with a CSV parser equals the stored logs; formula cells neutralised;
 * the PDF's text holds the rows (pdftotext); the monthly limit (429, not counted on failure, a new month
 * starts again); owner and admin only; each export, colour change and cleanup is exactly one audit entry.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPORT_LIMIT_REACHED, auditMessage } from '@skald/contracts';
import type { ExportStatus } from '@skald/contracts';
import type { LogRecord, LogScanQuery } from '@skald/ports';
import { waitFor } from '@skald/testing';
import { PDF_ROW_CAP, cutNotice } from '../src/domain/exports/pdf-export.ts';
import { NOW, createHarness, getAs, record, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { auditEntries, hasPdftotext, parseCsv, pdfText } from './support/exports.ts';

let h: Harness;
let pdftotext = false;
const LOG_HEADER = ['id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata'];

const statusOf = async (serverId: string, userId = 'owner'): Promise<ExportStatus> => (await getAs(h, `/exports/status?serverId=${serverId}`, userId)).json<ExportStatus>();

/** Waits until the service's audit copy holds `count` entries of the server (polling an export would count exports). */
async function copied(serverId: string, count: number): Promise<void> {
  const copy = await h.deps.docs.collection<{ _id: string }>('audit_export_copy');
  await waitFor(async () => (await copy.count({ serverId })) === count, `${count} audit entries of ${serverId} in the copy`);
}

function asCsvRow(r: LogRecord): string[] {
  return [r.id, new Date(r.createdAt).toISOString(), r.level, r.type, r.resource, r.message, r.metadata === null ? '' : JSON.stringify(r.metadata)];
}

beforeAll(async () => {
  pdftotext = await hasPdftotext();
  h = await createHarness();
  await h.identity.user('owner');
  await h.identity.user('admin');
  await seedServer(h, { serverId: 'big', ownerId: 'owner', name: 'Big Server', tier: 'legend' }, { admin: 'admin', member: 'user' });
  await seedServer(h, { serverId: 'free', ownerId: 'owner', name: 'Free Server' });
  await seedServer(h, { serverId: 'other', ownerId: 'stranger', tier: 'legend' });
});

afterAll(async () => {
  await h?.close();
});

describe('access', () => {
  it.each(['/exports/status?serverId=big', '/exports/logs?serverId=big', '/exports/auditlogs/pdf?serverId=big', '/exports/custom?serverId=big&types=logs'])(
    '%s: owner and admin 200, user 403, another tenant 404, no token 401',
    async (url) => {
      expect((await getAs(h, url, 'owner')).statusCode).toBe(200);
      expect((await getAs(h, url, 'admin')).statusCode).toBe(200);
      expect((await getAs(h, url, 'member')).statusCode).toBe(403);
      expect((await getAs(h, url.replace('serverId=big', 'serverId=other'), 'owner')).statusCode).toBe(404);
      expect((await getAs(h, url, null)).statusCode).toBe(401);
    },
  );
});

describe('CSV', () => {
  it('parses back into exactly the stored logs: fields, order, metadata, unicode, quotes, commas and newlines', async () => {
    const records = [
      record('csv1', { message: 'He said "hi", then left', metadata: { player: 'Zoë "Z"', items: ['a,b', 'c\nd'] } }),
      record('csv1', { message: 'line one\r\nline two\nline three', resource: 'spawn, north', level: 'warn' }),
      record('csv1', { message: 'Ünïcødé ✓ 日本語 🎮', type: 'Chat' }),
      record('csv1', { message: '', metadata: { nested: { deep: [1, 2, { x: null }] } } }),
      record('csv1', { message: 'photo', logType: 'photo', imageKey: 'i.webp', thumbKey: 't.webp' }),
    ];
    await h.deps.logStore.insertBatch(records);
    await seedServer(h, { serverId: 'csv1', ownerId: 'owner', tier: 'legend' });
    const res = await getAs(h, '/exports/logs?serverId=csv1', 'owner');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="logs-2025-08-20.csv"');
    const rows = parseCsv(res.body);
    const texts = records.filter((r) => r.logType === 'text').sort((a, b) => b.createdAt - a.createdAt);
    expect(rows).toEqual([LOG_HEADER, ...texts.map(asCsvRow)]);
    expect(JSON.parse(rows.find((r) => r[0] === records[0]!.id)![6]!)).toEqual(records[0]!.metadata);
    const photos = parseCsv((await getAs(h, '/exports/photologs?serverId=csv1', 'owner')).body);
    expect(photos).toEqual([LOG_HEADER, asCsvRow(records[4]!)]);
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const dangerous = ['=SUM(A1:A2)', '+1+1', '-2', '@cmd', '\tx', '\rcalc'];
    await h.deps.logStore.insertBatch(dangerous.map((message, i) => record('formula', { message, type: i === 0 ? '=HYPERLINK("x")' : 'T', createdAt: NOW - 10_000 + i })));
    await seedServer(h, { serverId: 'formula', ownerId: 'owner', tier: 'legend' });
    const rows = parseCsv((await getAs(h, '/exports/logs?serverId=formula', 'owner')).body).slice(1);
    expect(rows.map((r) => r[5])).toEqual([...dangerous].reverse().map((m) => `'${m}`));
    expect(rows[5]![3]).toBe(`'=HYPERLINK("x")`);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('exports the audit entries of the server only, details as JSON text', async () => {
    await seedServer(h, { serverId: 'aud', ownerId: 'owner', tier: 'legend' });
    const at = (s: number) => new Date(NOW - s * 1000).toISOString();
    await h.deps.bus.publish([
      auditMessage({ actorId: 'owner', actorEmail: 'o@example.com', serverId: 'aud', action: 'server.renamed', details: { from: 'a', to: 'b, "c"' }, at: at(20) }),
      auditMessage({ actorId: 'u2', actorEmail: 'u2@example.com', serverId: 'aud', action: 'apikey.rotated', details: 'API key reset', at: at(10) }),
      auditMessage({ actorId: 'owner', actorEmail: 'o@example.com', serverId: 'elsewhere', action: 'server.created', details: { name: 'x' }, at: at(5) }),
      auditMessage({ actorId: 'owner', actorEmail: 'o@example.com', serverId: null, action: 'user.logout', details: 'Signed out', at: at(1) }),
    ]);
    await copied('aud', 2);
    await copied('elsewhere', 1);
    const rows = parseCsv((await getAs(h, '/exports/auditlogs?serverId=aud', 'owner')).body);
    expect(rows[0]).toEqual(['id', 'created_at', 'user_id', 'user_email', 'action', 'details']);
    expect(rows.slice(1).map((r) => r.slice(1))).toEqual([
      [at(10), 'u2', 'u2@example.com', 'apikey.rotated', 'API key reset'],
      [at(20), 'owner', 'o@example.com', 'server.renamed', '{"from":"a","to":"b, \\"c\\""}'],
    ]);
  });

  it('custom: the chosen kinds with their filters and inclusive days, one header; bad selections 400 and uncounted', async () => {
    await seedServer(h, { serverId: 'cus', ownerId: 'owner', tier: 'legend' });
    const day = (d: string, hh = 12) => Date.parse(`${d}T${String(hh).padStart(2, '0')}:00:00.000Z`);
    await h.deps.logStore.insertBatch([
      record('cus', { id: 'c-early', createdAt: day('2025-08-09', 23), level: 'error' }),
      record('cus', { id: 'c-in1', createdAt: day('2025-08-10', 0), level: 'error', resource: 'Arena' }),
      record('cus', { id: 'c-in2', createdAt: day('2025-08-11', 23), level: 'ERROR', resource: 'arena' }),
      record('cus', { id: 'c-info', createdAt: day('2025-08-11'), level: 'info', resource: 'arena' }),
      record('cus', { id: 'c-late', createdAt: day('2025-08-12', 0), level: 'error', resource: 'arena' }),
      record('cus', { id: 'c-photo', createdAt: day('2025-08-10'), level: 'error', resource: 'arena', logType: 'photo' }),
    ]);
    await h.deps.bus.publish([auditMessage({ actorId: 'owner', actorEmail: 'o@example.com', serverId: 'cus', action: 'logs.deleted', details: { days: 3 }, at: new Date(day('2025-08-11')).toISOString() })]);
    await copied('cus', 1);
    const used = (await statusOf('cus')).used;
    const res = await getAs(h, '/exports/custom?serverId=cus&types=auditlogs,logs&level=error&resource=ARENA&from=2025-08-10&to=2025-08-11', 'owner');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="custom-2025-08-20.csv"');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(['kind', 'id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata', 'user_id', 'user_email', 'action', 'details']);
    expect(rows.slice(1).map((r) => `${r[0]}:${r[0] === 'auditlogs' ? r[10] : r[1]}`)).toEqual(['auditlogs:logs.deleted', 'logs:c-in2', 'logs:c-in1']);
    expect(rows.every((r) => r.length === 12)).toBe(true);
    const photos = parseCsv((await getAs(h, '/exports/custom?serverId=cus&types=photologs', 'owner')).body);
    expect(photos.slice(1).map((r) => r[1])).toEqual(['c-photo']);
    expect((await statusOf('cus')).used).toBe(used + 2);

    for (const [query, error] of [
      ['types=', 'Select at least one log type!'],
      ['', 'Select at least one log type!'],
      ['types=logs,secrets', 'Unknown export type. Use logs, photologs, auditlogs.'],
      ['types=logs&from=2025-02-30', 'Dates must be real days written YYYY-MM-DD.'],
      ['types=logs&from=2025-08-12&to=2025-08-11', 'The start date must not be after the end date.'],
      ['types=logs&timeZone=Mars/Olympus', 'Unknown time zone.'],
    ] as const) {
      const bad = await getAs(h, `/exports/custom?serverId=cus&${query}`, 'owner');
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json(), query).toMatchObject({ error: error });
    }
    expect((await getAs(h, '/exports/secrets?serverId=cus', 'owner')).statusCode).toBe(400);
    expect((await getAs(h, '/exports/secrets/pdf?serverId=cus', 'owner')).statusCode).toBe(400);
    expect((await statusOf('cus')).used).toBe(used + 2);
  });
});

describe('PDF', () => {
  it('is a paged table with the server name, the period and the rows', async (context) => {
    await seedServer(h, { serverId: 'pdf1', ownerId: 'owner', name: 'Northwind RP', tier: 'legend' });
    const records = Array.from({ length: 120 }, (_, i) =>
      record('pdf1', { createdAt: Date.parse('2025-08-18T10:00:00.000Z') + i * 60_000, level: i % 2 ? 'warn' : 'info', type: `Type${i}`, resource: 'arena', message: `Row number ${i} with "quotes", commas` }),
    );
    await h.deps.logStore.insertBatch(records);
    const res = await getAs(h, '/exports/logs/pdf?serverId=pdf1', 'owner');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="logs-2025-08-20.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (!pdftotext) {
      console.log('skipped: pdftotext missing');
      context.skip();
    }
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Northwind RP: Logs');
    expect(text).toContain('Period: 2025-08-18 to 2025-08-18 (UTC)');
    for (const heading of ['Time (UTC)', 'Level', 'Type', 'Resource', 'Message']) expect(text).toContain(heading);
    for (const i of [0, 57, 119]) expect(text).toContain(`Row number ${i} with "quotes", commas`);
    expect(text).toContain('2025-08-18 10:00:00');
    expect(text.split('\f').length).toBeGreaterThan(2);
    expect(text).not.toContain('was cut');
  });

  it('prints Cyrillic, Greek, CJK and Hangul names, not question marks', async (context) => {
    await seedServer(h, { serverId: 'pdfnames', ownerId: 'owner', name: 'Северный · 北方', tier: 'legend' });
    const names = ['Иван Петров', 'Αλέξης Παπαδόπουλος', '王小明', 'たなか ゆき', '김민준'];
    await h.deps.logStore.insertBatch(names.map((name, i) => record('pdfnames', { createdAt: NOW - 100 + i, resource: 'bank', message: `${name} robbed the bank` })));
    const res = await getAs(h, '/exports/logs/pdf?serverId=pdfnames', 'owner');
    expect(res.statusCode).toBe(200);
    if (!pdftotext) {
      console.log('skipped: pdftotext missing');
      context.skip();
    }
    const text = await pdfText(res.rawPayload);
    expect(text).not.toContain('?');
    expect(text).toContain('Северный · 北方: Logs');
    for (const name of names) expect(text).toContain(`${name} robbed the bank`);
  });

  it(`holds at most ${PDF_ROW_CAP} rows and then says it was cut and how to get the rest`, async (context) => {
    await seedServer(h, { serverId: 'pdfcap', ownerId: 'owner', name: 'Capped', tier: 'legend' });
    await h.deps.logStore.insertBatch(Array.from({ length: PDF_ROW_CAP + 1 }, (_, i) => record('pdfcap', { createdAt: NOW - 1_000_000 + i, message: `capped ${i}` })));
    const res = await getAs(h, '/exports/logs/pdf?serverId=pdfcap', 'owner');
    expect(res.statusCode).toBe(200);
    if (!pdftotext) {
      console.log('skipped: pdftotext missing');
      context.skip();
    }
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(cutNotice(PDF_ROW_CAP));
    expect(text).toContain(`Rows: ${PDF_ROW_CAP}`);
    expect(text).toContain(`capped ${PDF_ROW_CAP}`);
    expect(text).not.toMatch(/capped 0\b/);
  });
});

describe('monthly limit', () => {
  it('the (limit+1)th export is 429 and uncounted; a failed export is uncounted; a new month starts again', async () => {
    await h.deps.logStore.insertBatch([record('free', { message: 'one' })]);
    expect(await statusOf('free')).toEqual({ used: 0, limit: 2 });
    const scan = vi.spyOn(h.deps.logStore, 'scan');
    try {
      // The store fails before the first row: a 500, nothing counted.
      scan.mockImplementationOnce(() => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('store down')) }),
      }));
      expect((await getAs(h, '/exports/logs?serverId=free', 'owner')).statusCode).toBe(500);
      expect((await statusOf('free')).used).toBe(0);
      // The store fails after the first page went out: the answer is cut, the export given back.
      scan.mockImplementationOnce(async function* failLater(query: LogScanQuery): AsyncIterable<LogRecord[]> {
        yield [record(query.serverId, { message: 'partial' })];
        throw new Error('store down mid-way');
      });
      await getAs(h, '/exports/logs?serverId=free', 'owner').catch(() => undefined);
      await waitFor(async () => (await statusOf('free')).used === 0, 'the refund of the cut export');
    } finally {
      scan.mockRestore();
    }
    expect((await getAs(h, '/exports/logs?serverId=free', 'owner')).statusCode).toBe(200);
    expect((await getAs(h, '/exports/logs/pdf?serverId=free', 'admin')).statusCode).toBe(404);
    expect((await getAs(h, '/exports/logs/pdf?serverId=free', 'owner')).statusCode).toBe(200);
    expect(await statusOf('free')).toEqual({ used: 2, limit: 2 });
    const refused = await getAs(h, '/exports/custom?serverId=free&types=logs', 'owner');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: EXPORT_LIMIT_REACHED });
    expect((await getAs(h, '/exports/auditlogs/pdf?serverId=free', 'owner')).statusCode).toBe(429);
    expect(await statusOf('free')).toEqual({ used: 2, limit: 2 });
    // The first of the next month (UTC): a new count.
    const saved = h.clock.now;
    h.clock.now = Date.parse('2025-09-01T00:00:00.000Z');
    try {
      expect(await statusOf('free')).toEqual({ used: 0, limit: 2 });
      expect((await getAs(h, '/exports/logs?serverId=free', 'owner')).statusCode).toBe(200);
      expect(await statusOf('free')).toEqual({ used: 1, limit: 2 });
    } finally {
      h.clock.now = saved;
    }
  });
});

describe('audit entries of this service', () => {
  it('colours saved, logs deleted and each export made are exactly one entry each, with the user and no secret', async () => {
    await seedServer(h, { serverId: 'trail', ownerId: 'owner', tier: 'legend' }, { admin: 'admin' });
    await h.deps.logStore.insertBatch([record('trail', { createdAt: NOW - 40 * 86_400_000 })]);
    const before = h.published.length;
    const put = await h.injectAs({ id: 'admin' }, { method: 'PUT', url: '/settings/colors?serverId=trail', payload: { error: { bg_color: '#ff0000', text_color: '#ffffff' } } });
    expect(put.statusCode).toBe(200);
    const del = await h.injectAs({ id: 'owner' }, { method: 'DELETE', url: '/logs/cleanup?serverId=trail&days=30' });
    expect(del.json()).toEqual({ deletedCount: 1 });
    expect((await getAs(h, '/exports/logs?serverId=trail', 'owner')).statusCode).toBe(200);
    expect((await getAs(h, '/exports/auditlogs/pdf?serverId=trail', 'admin')).statusCode).toBe(200);
    // Refused requests leave no entry.
    expect((await h.injectAs({ id: 'owner' }, { method: 'DELETE', url: '/logs/cleanup?serverId=trail&days=-1' })).statusCode).toBe(400);
    expect((await getAs(h, '/exports/custom?serverId=trail&types=', 'owner')).statusCode).toBe(400);
    await waitFor(async () => auditEntries(h.published.slice(before)).length >= 4, 'four audit entries');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const entries = auditEntries(h.published.slice(before));
    expect(entries.map((e) => [e.action, e.actorId, e.actorEmail, e.serverId, e.details])).toEqual([
      ['logs.colors-saved', 'admin', 'admin@skald.test', 'trail', { colors: { error: { bg_color: '#ff0000', text_color: '#ffffff' } } }],
      ['logs.deleted', 'owner', 'owner@skald.test', 'trail', { days: 30, deletedCount: 1 }],
      ['export.made', 'owner', 'owner@skald.test', 'trail', { type: 'logs', format: 'csv' }],
      ['export.made', 'admin', 'admin@skald.test', 'trail', { type: 'auditlogs', format: 'pdf' }],
    ]);
    for (const e of entries) expect(JSON.stringify(e)).not.toMatch(/apiKey|password|token|secret/i);
  });
});
