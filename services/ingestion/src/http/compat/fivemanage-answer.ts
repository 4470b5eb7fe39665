/** Fivemanage's log routes accept one log or an array and answer 200 {"status":"ok"} (also POST /logs with a raw key: routes.ts). */
import type { FastifyRequest } from 'fastify';
import { parseFivemanageBody } from '../../domain/compat/fivemanage.ts';
import type { IngestionRouteDeps } from '../deps.ts';
import { translated } from '../field-errors.ts';
import { acceptCompatLogs } from './accept-logs.ts';

function dataset(request: FastifyRequest): string | undefined {
  const value = request.headers['x-fivemanage-dataset'];
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

export async function acceptFivemanage(deps: IngestionRouteDeps, request: FastifyRequest): Promise<{ status: 'ok' }> {
  await acceptCompatLogs(deps, request, translated(() => parseFivemanageBody(request.body, dataset(request))));
  return { status: 'ok' };
}
