/**
 * The HTTP baseline: a bare Fastify POST endpoint answering 201 with a fresh id, as cheap as a JSON
 * POST gets on this machine. Loaded exactly like the gateway's single-log route, on the same CPU.
 */
import Fastify from 'fastify';
import { serve } from './child-rpc.ts';

const app = Fastify({ logger: false });
app.post('/bare', async (_request, reply) => reply.code(201).send({ id: crypto.randomUUID() }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });

serve({
  address: () => `${address}/bare`,
  stop: () => app.close(),
});
