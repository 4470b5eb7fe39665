/**
 * The proxy-only gateway (TARGET=gateway) forwards requests; it must not load the services or the
 * adapters (and through them the MongoDB, Kafka, MinIO and BullMQ clients). Walks the import graph from the
 * process entry (gateway/src/main.ts): value imports (`import type` is erased) and dynamic `import('…')`,
 * relative files and workspace packages followed to their source. launch.ts picks the mode with one dynamic
 * import per TARGET, so there the walk takes the branch of the target it checks; every other dynamic import
 * is followed, as it may run in any mode. A computed `import(name)` cannot be followed, so none may be
 * reached. gateway-only-modules.integration.test.ts starts the process and lists what Node loaded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const MAIN = join(root, 'gateway/src/main.ts');
const LAUNCH = join(root, 'gateway/src/launch.ts');
const WORKSPACE: Readonly<Record<string, string>> = {
  '@skald/adapters': 'libs/adapters/src/index.ts',
  '@skald/config': 'libs/config/src/index.ts',
  '@skald/contracts': 'libs/contracts/src/index.ts',
  '@skald/contracts/api': 'libs/contracts/src/api/index.ts',
  '@skald/ports': 'libs/ports/src/index.ts',
  '@skald/service-kit': 'libs/service-kit/src/index.ts',
  '@skald/testing': 'libs/testing/src/index.ts',
};
/** launch.ts's dynamic import for each mode (config.target: 'all', 'gateway', any service name). */
const MODES = { all: './all-in-one.ts', gateway: './gateway-only.ts', service: './single-service.ts' } as const;
type Mode = keyof typeof MODES;
const CLIENTS = ['mongodb', 'kafkajs', 'minio', 'bullmq', 'ioredis', 'nodemailer', 'sharp'];

/** Value imports and re-exports of a module (type-only ones are erased at runtime). */
function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    if (match[5]) specifiers.push(match[5]);
    else if (!match[2] && match[4]) specifiers.push(match[4]);
  }
  return specifiers;
}

/** `import('…')` with a literal specifier. */
function dynamicImports(source: string): string[] {
  return [...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]!);
}

/** `import(expression)`: a module chosen at run time, which no walk can follow. */
function computedImports(source: string): string[] {
  return [...source.matchAll(/\bimport\(\s*([^'"\s)][^)]*)\)/g)].map((match) => match[1]!);
}

interface Walk {
  readonly modules: Set<string>;
  /** Workspace modules with a computed import(), with the expression. */
  readonly computed: string[];
}

function walk(entry: string, mode: Mode): Walk {
  const modules = new Set<string>();
  const computed: string[] = [];
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    if (!file.startsWith('/')) continue; // a package outside the workspace: recorded, not followed
    const source = readFileSync(file, 'utf8');
    const dynamic = file === LAUNCH ? [MODES[mode]] : dynamicImports(source);
    for (const expression of computedImports(source)) computed.push(`${file.slice(root.length + 1)}: import(${expression})`);
    for (const specifier of [...staticImports(source), ...dynamic]) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (existsSync(target)) stack.push(target);
      } else if (specifier.startsWith('@skald/')) {
        const mapped = WORKSPACE[specifier];
        stack.push(mapped === undefined ? specifier : join(root, mapped));
      } else if (!specifier.startsWith('node:')) {
        stack.push(specifier);
      }
    }
  }
  return { modules, computed };
}

const relative = (modules: Iterable<string>) => [...modules].map((m) => (m.startsWith(root) ? m.slice(root.length + 1) : m));
const forbidden = (modules: readonly string[]) =>
  modules.filter((m) => m.startsWith('libs/adapters/') || m.startsWith('services/') || m.startsWith('@skald/') || CLIENTS.includes(m));

describe('the proxy-only gateway', () => {
  it('launch.ts loads every mode lazily, one dynamic import per TARGET', () => {
    const source = readFileSync(LAUNCH, 'utf8');
    const modeFiles: readonly string[] = Object.values(MODES);
    expect(staticImports(source).filter((s) => modeFiles.includes(s))).toEqual([]);
    expect(dynamicImports(source).sort()).toEqual([...modeFiles].sort());
    // main.ts reaches launch.ts (dynamically, after enabling the compile cache): the walk passes through it.
    expect(relative(walk(MAIN, 'gateway').modules)).toContain('gateway/src/launch.ts');
  });

  it('from main.ts with TARGET=gateway, reaches neither services nor adapters nor their database and broker clients', () => {
    const { modules, computed } = walk(MAIN, 'gateway');
    const reached = relative(modules);
    expect(forbidden(reached)).toEqual([]);
    expect(computed).toEqual([]);
    // The walk itself works: it reached the proxy and the service kit.
    expect(reached).toContain('gateway/src/proxy.ts');
    expect(reached).toContain('libs/service-kit/src/index.ts');
  });

  it('is told apart from the all-in-one, which does load the adapters and the services (the walk sees them)', () => {
    const { modules, computed } = walk(MAIN, 'all');
    expect(relative(modules)).toContain('libs/adapters/src/index.ts');
    // The services come by package name (service-registry.ts): the walk sees the computed import.
    expect(computed.some((c) => c.startsWith('gateway/src/service-registry.ts'))).toBe(true);
  });
});
