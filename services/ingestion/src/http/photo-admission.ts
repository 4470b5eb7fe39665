/**
 * POST /photologs' admission into the process's photo gate (domain/photo-memory.ts), declared as an
 * onRequest hook after the API-key check: it runs before the body is read, so an upload the process has
 * no room for is refused (503 + Retry-After) before its 10 MB are buffered. An admitted upload leaves
 * the gate when its answer is sent or its connection closes, whichever comes first.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { PhotoBusyError } from '../domain/photo-gate.ts';
import type { PhotoGate } from '../domain/photo-gate.ts';
import { photoGate } from '../domain/photo-memory.ts';
import { photoBusy } from '../domain/refusals.ts';

export function admitPhoto(gate: PhotoGate = photoGate) {
  return (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    let leave: () => void;
    try {
      leave = gate.enter();
    } catch (error) {
      done(error instanceof PhotoBusyError ? photoBusy(error) : (error as Error));
      return;
    }
    // 'close' follows 'finish' on a sent answer and also fires when the client goes away mid-upload.
    reply.raw.once('close', leave);
    done();
  };
}
