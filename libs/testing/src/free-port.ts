/**
 * A TCP port free on 127.0.0.1 right now (the kernel picks it; the probe closes before the caller binds it).
 * The tests' helper for it (through @skald/testing; the web app's end-to-end server keeps a copy, its project
 * may depend on the contracts only), also imported by path by the image's compile-cache warm-up
 * (scripts/warm-compile-cache.ts): the image holds libs/ but not the test kit's dependencies, so the warm-up
 * takes this file alone, not the kit's index.
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
