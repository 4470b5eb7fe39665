/**
 * GET /exports/status, /exports/{type}, /exports/{type}/pdf and /exports/custom (docs/spec/part-2.txt section 7), for
 * a server's owner and admins. Each export counts once against the month (domain/exports/export-limit.ts):
 * checked and counted before the first row is read, given back when the export fails.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBodySchema, ExportStatusSchema } from '@skald/contracts';
import type { ExportType } from '@skald/contracts';
import { requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { dayOf } from '../domain/days.ts';
import { csvChunks } from '../domain/exports/csv-export.ts';
import { customSelection, exportTypeOf } from '../domain/exports/export-query.ts';
import type { ExportSelection } from '../domain/exports/export-query.ts';
import { exportRows } from '../domain/exports/export-rows.ts';
import { PDF_ROW_CAP, buildPdf, collectRows } from '../domain/exports/pdf-export.ts';
import type { ExportTicket } from '../domain/exports/export-limit.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, ServerIdQuerySchema, ServerIdSchema } from './route-schemas.ts';

const EXPORT_ERRORS = { ...ADMIN_ERRORS, 429: ErrorBodySchema } as const;
const TypeParams = Type.Object({ type: Type.String({ maxLength: 32 }) }, { additionalProperties: false });
const filter = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const CustomQuery = Type.Object(
  {
    serverId: ServerIdSchema,
    /** Comma-separated kinds: logs, photologs, auditlogs. */
    types: filter(64),
    level: filter(200),
    type: filter(200),
    resource: filter(200),
    from: filter(10),
    to: filter(10),
    /** The zone whose days from and to name (an IANA name or an offset); UTC when absent. */
    timeZone: filter(64),
  },
  { additionalProperties: false },
);
const Bytes = { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) };
const CSV_ANSWER = { description: 'The CSV file (RFC 4180, UTF-8), streamed', content: { 'text/csv': Bytes } };
const PDF_ANSWER = { description: 'The PDF file', content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } };
const COUNTED = 'Counts one export against the month (429 at the limit; a failed export is not counted).';

export async function registerExportRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'admin')] };

  /** The export was produced to its last row: its audit entry. A failure here is logged, never undone. */
  function recordExport(request: FastifyRequest, serverId: string, details: Record<string, unknown>): Promise<void> {
    return deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action: 'export.made', details }).catch((error: unknown) => {
      request.log.error({ err: error }, 'export: audit entry not published');
    });
  }

  async function sendCsv(request: FastifyRequest, reply: FastifyReply, selection: ExportSelection, layout: ExportType | 'custom'): Promise<FastifyReply> {
    const ticket = await deps.exportLimit.take(selection.serverId);
    const chunks = csvChunks(exportRows(deps, selection), layout)[Symbol.asyncIterator]();
    let first: IteratorResult<string>;
    try {
      // The first page (with the header) is read before answering: a store that fails at once is a clean 500.
      first = await chunks.next();
    } catch (error) {
      await ticket.refund();
      throw error;
    }
    const body = Readable.from(streamed(first, chunks, ticket, () => recordExport(request, selection.serverId, { type: layout, format: 'csv' })), { objectMode: false });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${layout}-${dayOf(deps.now())}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);
  }

  typed.get(
    '/exports/status',
    {
      ...admin,
      schema: {
        tags: ['exports'],
        summary: "Exports made this calendar month (UTC) and the tier's monthly limit",
        querystring: ServerIdQuerySchema,
        response: { 200: ExportStatusSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => deps.exportLimit.status(serverAccessOf(request).serverId),
  );

  typed.get(
    '/exports/custom',
    {
      ...admin,
      schema: {
        tags: ['exports'],
        summary: 'One CSV of the chosen kinds and filters',
        description:
          `${COUNTED} types: comma-separated logs, photologs, auditlogs (in that order in the file, each newest first). level, type and resource ` +
          'filter logs and photo logs (case-insensitive equality); from and to are inclusive days (YYYY-MM-DD) in timeZone (UTC when absent) and filter every kind.',
        querystring: CustomQuery,
        response: { 200: CSV_ANSWER, ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => sendCsv(request, reply, customSelection({ ...request.query, serverId: serverAccessOf(request).serverId }), 'custom'),
  );

  typed.get(
    '/exports/:type',
    {
      ...admin,
      schema: {
        tags: ['exports'],
        summary: 'CSV of every log, photo log or audit entry of the server (type logs, photologs, auditlogs)',
        description: `${COUNTED} Newest first, streamed in pages.`,
        params: TypeParams,
        querystring: ServerIdQuerySchema,
        response: { 200: CSV_ANSWER, ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const kind = exportTypeOf(request.params.type);
      return sendCsv(request, reply, { serverId: serverAccessOf(request).serverId, kinds: [kind] }, kind);
    },
  );

  typed.get(
    '/exports/:type/pdf',
    {
      ...admin,
      schema: {
        tags: ['exports'],
        summary: 'PDF table of the newest logs, photo logs or audit entries of the server',
        description: `${COUNTED} At most ${PDF_ROW_CAP} rows, newest first; a longer export says on its first page that it was cut and that the CSV has every row.`,
        params: TypeParams,
        querystring: ServerIdQuerySchema,
        response: { 200: PDF_ANSWER, ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const kind = exportTypeOf(request.params.type);
      const { serverId } = serverAccessOf(request);
      const ticket = await deps.exportLimit.take(serverId);
      let pdf: Buffer;
      try {
        const { rows, cut } = await collectRows(exportRows(deps, { serverId, kinds: [kind] }, Math.min(1000, PDF_ROW_CAP + 1)));
        const server = await deps.directory.server(serverId);
        const times = rows.map((r) => (r.kind === 'auditlogs' ? r.audit.atMs : r.log.createdAt));
        const period = times.length === 0 ? 'no rows' : `${dayOf(Math.min(...times))} to ${dayOf(Math.max(...times))} (UTC)`;
        pdf = await buildPdf({ serverName: server?.name ?? serverId, kind, period, generatedAt: new Date(deps.now()).toISOString() }, rows, { cut, cap: PDF_ROW_CAP });
      } catch (error) {
        await ticket.refund();
        throw error;
      }
      await recordExport(request, serverId, { type: kind, format: 'pdf' });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${kind}-${dayOf(deps.now())}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}

/**
 * The first chunk, then the rest. A failure after the answer started gives the export back (the client
 * sees the connection cut, not a complete file); the audit entry is written once the last row is out.
 */
async function* streamed(first: IteratorResult<string>, rest: AsyncIterator<string>, ticket: ExportTicket, onComplete: () => Promise<void>): AsyncIterable<string> {
  if (first.done) return void (await onComplete());
  yield first.value;
  try {
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } catch (error) {
    await ticket.refund();
    throw error;
  }
  await onComplete();
}
