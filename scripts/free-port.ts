/**
 * A TCP port free on 127.0.0.1 right now (the kernel picks it; the probe closes before the caller binds it).
 * Shared by the image's compile-cache warm-up (scripts/warm-compile-cache.ts, which the Dockerfile copies
 * with this file and nothing else of scripts/) and the root project's test support (test/support). The
 * gateway's and the web app's tests keep a copy: Nx projects may not import outside themselves by path.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
