/**
 * A hostile MySQL server for the engine's safety tests (reliability notes, "Rogue MySQL server"): it
 * completes the handshake (offering LOCAL INFILE), accepts any password, and then, per `behaviour`,
 * answers the first query with a `LOAD DATA LOCAL INFILE` request for /etc/passwd, or never answers at
 * all. It records every byte clients send after the handshake and the capability flags they announced.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export type RogueBehaviour = 'ask-for-local-file' | 'stall';

export interface RogueServer {
  readonly port: number;
  /** Capability flags of each client's handshake response. */
  readonly clientFlags: number[];
  /** Everything clients sent after their handshake response. */
  received(): Buffer;
  close(): Promise<void>;
}

const CLIENT_LOCAL_FILES = 0x80;
const CAPABILITIES = 0x1 | 0x4 | 0x8 | CLIENT_LOCAL_FILES | 0x200 | 0x2000 | 0x8000 | 0x80000;

function packet(sequence: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence;
  return Buffer.concat([header, payload]);
}

function handshake(): Buffer {
  const capabilities = Buffer.alloc(4);
  capabilities.writeUInt32LE(CAPABILITIES);
  return Buffer.concat([
    Buffer.from([0x0a]),
    Buffer.from('5.7.99-rogue\0', 'latin1'),
    Buffer.from([1, 0, 0, 0]),
    Buffer.from('abcdefgh', 'latin1'),
    Buffer.from([0]),
    capabilities.subarray(0, 2),
    Buffer.from([0x21]),
    Buffer.from([0x02, 0x00]),
    capabilities.subarray(2, 4),
    Buffer.from([21]),
    Buffer.alloc(10),
    Buffer.from('ijklmnopqrst\0', 'latin1'),
    Buffer.from('mysql_native_password\0', 'latin1'),
  ]);
}

const OK = Buffer.from([0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);

function error(message: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0x28, 0x04]), Buffer.from(`#HY000${message}`, 'latin1')]);
}

export async function startRogueServer(behaviour: RogueBehaviour): Promise<RogueServer> {
  const clientFlags: number[] = [];
  const sent: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let state: 'handshake' | 'command' | 'after-request' = 'handshake';
    let buffered = Buffer.alloc(0);
    socket.write(packet(0, handshake()));
    socket.on('data', (chunk: Buffer) => {
      if (state !== 'handshake') sent.push(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = buffered.readUIntLE(0, 3);
        if (buffered.length < 4 + length) break;
        const sequence = buffered[3]!;
        const payload = buffered.subarray(4, 4 + length);
        buffered = buffered.subarray(4 + length);
        if (state === 'handshake') {
          clientFlags.push(payload.readUInt32LE(0));
          socket.write(packet(sequence + 1, OK));
          state = 'command';
        } else if (state === 'command') {
          if (behaviour === 'stall') continue;
          // 0xFB: "send me this file" (LOAD DATA LOCAL INFILE), whatever the query was.
          socket.write(packet(sequence + 1, Buffer.concat([Buffer.from([0xfb]), Buffer.from('/etc/passwd', 'latin1')])));
          state = 'after-request';
        } else {
          // Whatever the client answered (file bytes or the empty end packet): end the query with an error.
          if (length === 0) socket.write(packet(sequence + 1, error('no more')));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    clientFlags,
    received: () => Buffer.concat(sent),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
