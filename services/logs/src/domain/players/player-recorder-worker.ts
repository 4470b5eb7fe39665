/**
 * The recorder's worker thread (player-recorder-thread.ts starts it through PlayerStore.startWorker): the
 * same runs as on the service's thread (createRecordingLoop: queued logs read, their players extracted and
 * recorded), on a connection of its own. Messages are handled one at a time, in order, so a catch-up asked
 * before `close` is answered before the connection closes. Log lines go to the service's logger.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PlayerStore } from '@skald/ports';
import { createRecordingLoop } from './player-recorder.ts';
import type { RecorderLog } from './player-recorder.ts';
import type { RecorderReply, RecorderRequest, RecorderWorkerData } from './player-recorder-thread.ts';

export default function recordPlayers(store: PlayerStore, port: MessagePort, data: unknown): void {
  const { delayMs } = data as RecorderWorkerData;
  const reply = (message: RecorderReply): void => port.postMessage(message);
  const lineOf =
    (level: 'warn' | 'error') =>
    (fields: unknown, message?: string): void =>
      reply({ kind: 'log', level, fields: typeof fields === 'object' && fields !== null ? { ...fields } : {}, message: message ?? '' });
  const log = { warn: lineOf('warn'), error: lineOf('error') } as RecorderLog;
  const loop = createRecordingLoop({ store, log }, delayMs);
  loop.onDrained = () => reply({ kind: 'drained' });

  async function handle(request: RecorderRequest): Promise<void> {
    switch (request.kind) {
      case 'queued':
        loop.nudge();
        return;
      case 'catch-up':
        try {
          await loop.catchUp();
          // The service's connection reads next: what this one gathered in memory is written first.
          await store.settle();
          reply({ kind: 'caught-up', id: request.id });
        } catch (error) {
          reply({ kind: 'catch-up-failed', id: request.id, error });
        }
        return;
      case 'close':
        await loop.stop();
        await store.close();
        reply({ kind: 'closed' });
        port.close();
        return;
    }
  }

  let handled: Promise<void> = Promise.resolve();
  port.on('message', (request: RecorderRequest) => {
    handled = handled.then(() => handle(request));
  });
  loop.start();
}
