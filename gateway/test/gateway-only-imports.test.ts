/**
 * The proxy-only gateway (TARGET=gateway) forwards requests; it must not load the services or the
 * adapters (and through them the MongoDB, Kafka, MinIO and BullMQ clients). Walks the static import
 * graph from its module: value imports only (`import type` is erased), relative files and workspace
 * packages followed to their source. Dynamic `import()` is how the launcher chooses a mode, so it is
 * not followed.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const WORKSPACE: Readonly<Record<string, string>> = {
  '@skald/adapters': 'libs/adapters/src/index.ts',
  '@skald/config': 'libs/config/src/index.ts',
  '@skald/contracts': 'libs/contracts/src/index.ts',
  '@skald/contracts/api': 'libs/contracts/src/api/index.ts',
  '@skald/ports': 'libs/ports/src/index.ts',
  '@skald/service-kit': 'libs/service-kit/src/index.ts',
  '@skald/testing': 'libs/testing/src/index.ts',
};

/** Value imports and re-exports of a module (type-only ones are erased at runtime). */
function valueImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    if (match[5]) specifiers.push(match[5]);
    else if (!match[2] && match[4]) specifiers.push(match[4]);
  }
  return specifiers;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue; // a package outside the workspace: recorded, not followed
    for (const specifier of valueImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (existsSync(target)) stack.push(target);
      } else if (specifier.startsWith('@skald/')) {
        const mapped = WORKSPACE[specifier];
        if (mapped === undefined) stack.push(specifier);
        else stack.push(join(root, mapped));
      } else if (!specifier.startsWith('node:')) {
        stack.push(specifier);
      }
    }
  }
  return seen;
}

describe('the proxy-only gateway', () => {
  it('loads neither services nor adapters nor their database and broker clients', () => {
    const modules = reachable(join(root, 'gateway/src/gateway-only.ts'));
    const relative = [...modules].map((m) => (m.startsWith(root) ? m.slice(root.length + 1) : m));
    const forbidden = relative.filter(
      (m) => m.startsWith('libs/adapters/') || m.startsWith('services/') || m.startsWith('@skald/') || ['mongodb', 'kafkajs', 'minio', 'bullmq', 'ioredis', 'nodemailer', 'sharp'].includes(m),
    );
    expect(forbidden).toEqual([]);
    // The walk itself works: it reached the proxy and the service kit.
    expect(relative).toContain('gateway/src/proxy.ts');
    expect(relative).toContain('libs/service-kit/src/index.ts');
  });

  it('is told apart from the all-in-one, which does load the adapters (the walk sees them)', () => {
    const modules = [...reachable(join(root, 'gateway/src/all-in-one.ts'))].map((m) => m.slice(root.length + 1));
    expect(modules).toContain('libs/adapters/src/index.ts');
  });
});
