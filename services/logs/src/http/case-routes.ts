/**
 * Evidence cases (docs/CASES.md): every member of the server reads them (GET /cases, GET /cases/{id},
 * GET /cases/{id}/pdf); its owner and admins open, change and delete them. Every change is one audit entry
 * (case.created, case.updated, case.deleted).
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AddCaseLogsBodySchema, CASE_LIMITS, CASE_NOT_FOUND, CaseListSchema, CaseSchema, CreateCaseBodySchema, ErrorBodySchema, MessageAnswerSchema, UpdateCaseBodySchema } from '@skald/contracts';
import type { AuditAction, ServerRole } from '@skald/contracts';
import { HttpError, checkServerRole, guard, requireServerRole, sendError, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook } from '@skald/service-kit';
import { startCasePdf } from '../domain/cases/case-pdf.ts';
import { toApiCase, toCaseSummary } from '../domain/cases/case-view.ts';
import type { Cases } from '../domain/cases/cases.ts';
import { tierOfServer } from '../domain/server-directory.ts';
import type { ServerDirectory } from '../domain/server-directory.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, MEMBER_ERRORS, ServerIdQuerySchema } from './route-schemas.ts';

const CaseParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const PdfBytes = { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) };

/**
 * Routes under /cases/{id}: the case's server is looked up, then the caller's place on it. A case that does
 * not exist and one of a server the caller is not a member of answer the SAME 404; a member below `minRole`
 * gets 403. A guard: it runs before validation.
 */
function requireCaseRole(directory: ServerDirectory, cases: Pick<Cases, 'find'>, minRole: ServerRole): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { id?: unknown };
    const id = typeof params.id === 'string' ? params.id : '';
    const userId = userIdFromRequest(request);
    const found = userId === null || id === '' ? null : await cases.find(id);
    const check = await checkServerRole(directory, userId, found?.serverId ?? null, minRole);
    if (!check.ok) return sendError(reply, check.statusCode, check.statusCode === 404 ? CASE_NOT_FOUND : check.error);
    request.serverAccess = { serverId: found!.serverId, role: check.role };
    return undefined;
  });
}

/** A file name from the title: letters and digits of any script kept, the rest dashes (RFC 5987 for the header). */
function pdfFileName(title: string): string {
  const base = title.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'case';
  return `case-${base}.pdf`;
}

export async function registerCaseRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { cases } = deps;
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')] };
  const admin = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'admin')] };
  const caseReader = { preHandler: [app.authenticate, requireCaseRole(deps.directory, cases, 'user')] };
  const caseWriter = { preHandler: [app.authenticate, requireCaseRole(deps.directory, cases, 'admin')] };

  const audit = (request: FastifyRequest, serverId: string, action: AuditAction, details: Record<string, unknown>) =>
    deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action, details });

  typed.get(
    '/cases',
    {
      ...member,
      schema: {
        tags: ['cases'],
        summary: "The server's evidence cases, newest first, and how many its tier keeps (every member)",
        querystring: ServerIdQuerySchema,
        response: { 200: CaseListSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const [list, tier] = await Promise.all([cases.list(serverId), tierOfServer(deps.directory, serverId)]);
      return { cases: list.map(toCaseSummary), maxCases: tier.maxCases };
    },
  );

  typed.post(
    '/cases',
    {
      ...admin,
      schema: {
        tags: ['cases'],
        summary: 'Open a case from chosen logs, copied with their context (owner and admin)',
        description:
          `Each chosen text or photo log is copied with the server's ${CASE_LIMITS.contextLines} logs before and ${CASE_LIMITS.contextLines} after it; ` +
          `photos are copied into the case, so the case keeps its evidence when retention or a cleanup removes the logs. ` +
          `1 to ${CASE_LIMITS.maxLogIds} logIds (duplicates ignored); an id the server has no log for: 400 naming it, nothing copied. ` +
          `Title trimmed, 1 to ${CASE_LIMITS.maxTitleLength} characters; notes at most ${CASE_LIMITS.maxNotesLength} characters. ` +
          `At the tier's maxCases: 403 with a sentence.`,
        body: CreateCaseBodySchema,
        response: { 201: CaseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const created = await cases.create({
        serverId,
        title: request.body.title,
        notes: request.body.notes,
        logIds: request.body.logIds,
        createdBy: userIdFromRequest(request) ?? '',
        tier: await tierOfServer(deps.directory, serverId),
        now: deps.now(),
      });
      if ('refused' in created) throw new HttpError(created.refused === 'invalid' ? 400 : 403, created.message);
      await audit(request, serverId, 'case.created', { caseId: created.doc._id, title: created.doc.title, logIds: created.doc.entries.map((e) => e.logId), bytes: created.doc.bytes });
      return reply.code(201).send(toApiCase(created, deps.signer, deps.now()));
    },
  );

  typed.get(
    '/cases/:id',
    {
      ...caseReader,
      schema: {
        tags: ['cases'],
        summary: 'A case with its items: each chosen log and its context, photos with signed URLs of the case’s copies',
        description: `A case that does not exist, or of a server the caller is not a member of: 404 '${CASE_NOT_FOUND}'.`,
        params: CaseParams,
        response: { 200: CaseSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const stored = await cases.read(request.params.id);
      if (stored === null) throw new HttpError(404, CASE_NOT_FOUND);
      return toApiCase(stored, deps.signer, deps.now());
    },
  );

  typed.post(
    '/cases/:id/logs',
    {
      ...caseWriter,
      schema: {
        tags: ['cases'],
        summary: 'Add chosen logs, copied with their context, to an open case (owner and admin)',
        description:
          `Logs the case already has as chosen ones are ignored; a line already copied as context is not copied twice. ` +
          `At most ${CASE_LIMITS.maxLogIds} chosen logs a case (400). A closed case, or one changed while the logs were copied: 409.`,
        params: CaseParams,
        body: AddCaseLogsBodySchema,
        response: { 200: CaseSchema, 409: ErrorBodySchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const result = await cases.addLogs(request.params.id, request.body.logIds, deps.now());
      if (result === null) throw new HttpError(404, CASE_NOT_FOUND);
      if ('refused' in result) throw new HttpError(result.refused === 'invalid' ? 400 : 409, result.message);
      if (result.added.length > 0) await audit(request, serverId, 'case.updated', { caseId: result.stored.doc._id, added: result.added, bytes: result.stored.doc.bytes });
      return toApiCase(result.stored, deps.signer, deps.now());
    },
  );

  typed.patch(
    '/cases/:id',
    {
      ...caseWriter,
      schema: {
        tags: ['cases'],
        summary: 'Change the title, notes or status (open, closed) of a case (owner and admin)',
        description: 'At least one of the three. The evidence itself never changes.',
        params: CaseParams,
        body: UpdateCaseBodySchema,
        response: { 200: CaseSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const updated = await cases.update(request.params.id, request.body, deps.now());
      if (updated === null) throw new HttpError(404, CASE_NOT_FOUND);
      if ('refused' in updated) throw new HttpError(400, updated.message);
      const changed = Object.keys(request.body).filter((key) => request.body[key as keyof typeof request.body] !== undefined);
      await audit(request, serverId, 'case.updated', { caseId: updated._id, changed, ...(request.body.status === undefined ? {} : { status: request.body.status }) });
      const stored = await cases.read(updated._id);
      if (stored === null) throw new HttpError(404, CASE_NOT_FOUND);
      return toApiCase(stored, deps.signer, deps.now());
    },
  );

  typed.delete(
    '/cases/:id',
    {
      ...caseWriter,
      schema: {
        tags: ['cases'],
        summary: 'Delete a case and its copied logs and photos (owner and admin)',
        params: CaseParams,
        response: { 200: MessageAnswerSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const found = await cases.find(request.params.id);
      if (found === null || !(await cases.remove(request.params.id))) throw new HttpError(404, CASE_NOT_FOUND);
      await audit(request, serverId, 'case.deleted', { caseId: found._id, title: found.title });
      return { message: 'Case deleted' };
    },
  );

  typed.get(
    '/cases/:id/pdf',
    {
      ...caseReader,
      schema: {
        tags: ['cases'],
        summary: 'The case as a PDF: title, notes, every line with its time, level, type, resource and metadata, and the photos',
        description: 'Streamed as it is built. Text in any script (embedded Noto fonts: Latin, Greek, Cyrillic, CJK, Hangul).',
        params: CaseParams,
        response: { 200: { description: 'The PDF', content: { 'application/pdf': PdfBytes } }, ...MEMBER_ERRORS, 500: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const stored = await cases.read(request.params.id);
      if (stored === null) throw new HttpError(404, CASE_NOT_FOUND);
      const server = await deps.directory.server(stored.doc.serverId);
      const openedBy = (await deps.directory.emailOf(stored.doc.createdBy)) ?? stored.doc.createdBy;
      const { stream, done } = await startCasePdf(
        stored,
        { serverName: server?.name ?? stored.doc.serverId, openedBy, generatedAt: new Date(deps.now()).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' },
        { objects: deps.objects },
      );
      done.catch((error: unknown) => request.log.error({ err: error }, 'case pdf: building failed after the answer started'));
      const name = pdfFileName(stored.doc.title);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="case.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );
}
