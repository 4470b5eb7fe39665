import type { FastifyReply } from 'fastify';

/** The platform's one error shape: `error` is the text the web app shows, `message` the same or more detail. */
export function sendError(reply: FastifyReply, status: number, error: string, message: string = error): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error, message });
}
