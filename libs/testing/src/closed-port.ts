/**
 * A loopback port nobody listens on at the moment of the call: the kernel's answer to a bind of port 0,
 * closed again at once. Only for what PORT=0 cannot serve: an address that must refuse connections (a
 * peer that is down), or a port a test must name before the process starts because what the process
 * derives from it is under test. Another process can bind the port in between, so a test of the second
 * kind starts again on a new one when its process exits on EADDRINUSE. To learn the port a process
 * listens on, start it with PORT=0 and read its listening line (listening-line.ts).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
