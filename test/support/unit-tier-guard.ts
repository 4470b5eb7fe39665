// The unit tier's rule, enforced: a unit test starts no process and connects to nothing but a listener
// its own process opened (Fastify inject, a local HTTP receiver on port 0). Starting a child process or
// reaching Redis, MariaDB, Kafka, a container runtime or any other host fails the test file with a message
// naming what was attempted; such a test belongs in a `*.integration.test.ts` file (docs/TESTING.md).
// Loaded as a setup file by the unit tier only (vitest.config.ts, web/vitest.config.ts).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll } from 'vitest';

/**
 * What the guard keeps for the file being run. Without isolation (vitest.config.ts) one worker runs many
 * files and re-runs this setup file for each: the patches below are installed once per process, and this
 * state is started afresh for every file.
 */
interface GuardState {
  violations: string[];
  ownPorts: Set<number>;
  ownPaths: Set<string>;
}
const STATE = Symbol.for('skald.unit-tier-guard');
const holder = globalThis as typeof globalThis & { [STATE]?: GuardState };
const installed = holder[STATE] !== undefined;
const state: GuardState = { violations: [], ownPorts: new Set(), ownPaths: new Set() };
holder[STATE] = state;
const current = (): GuardState => holder[STATE] ?? state;

const hint = 'a unit test starts no process and reaches nothing outside its own process: name the file *.integration.test.ts';

function refuse(what: string): Error {
  const message = `unit tier: ${what} (${hint})`;
  const error = new Error(message);
  // The first one is also thrown where nothing catches it: a file whose every test is skipped (a suite
  // that probes for Redis and skips without it) runs no afterAll, and the run must fail all the same.
  const { violations } = current();
  if (violations.length === 0) {
    setImmediate(() => {
      throw error;
    });
  }
  violations.push(message);
  return error;
}

const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1', '0.0.0.0', '::']);

interface Target {
  port?: number;
  host?: string;
  path?: string;
}

/** Where Socket#connect is asked to go, from any of its call shapes (net.connect passes [options, cb]). */
function targetOf(args: unknown[]): Target {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'number') return { port: first, host: typeof args[1] === 'string' ? args[1] : 'localhost' };
  if (typeof first === 'string') {
    return /^\d+$/.test(first) ? { port: Number(first), host: typeof args[1] === 'string' ? args[1] : 'localhost' } : { path: first };
  }
  if (first !== null && typeof first === 'object') {
    const options = first as { port?: number | string; host?: string; path?: string };
    if (typeof options.path === 'string') return { path: options.path };
    return { port: Number(options.port), host: options.host ?? 'localhost' };
  }
  return {};
}

// Loopback ports 1 (tcpmux) and 9 (discard) are the tests' "nothing listens here": an upstream or a
// webhook receiver that refuses the connection at once, without any external component.
const closedPorts = new Set([1, 9]);

function allowed(target: Target): boolean {
  const { ownPaths, ownPorts } = current();
  if (target.path !== undefined) return ownPaths.has(target.path);
  if (target.port === undefined || !loopbackHosts.has(target.host ?? 'localhost')) return false;
  return ownPorts.has(target.port) || closedPorts.has(target.port);
}

// Installed once per process: every way child_process starts a process refuses, the named ESM exports
// re-synced so that `import { spawn } from 'node:child_process'` in the code under test gets the refusing
// version too; listeners record their ports and sockets (the only endpoints a unit test may connect to);
// a connection anywhere else is refused.
if (!installed) {
  const mutableChildProcess = childProcess as unknown as Record<string, unknown>;
  for (const name of starters) {
    mutableChildProcess[name] = (command: unknown) => {
      throw refuse(`child_process.${name}(${String(command)}) starts a child process`);
    };
  }

  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function guardedListen(this: net.Server, ...args: unknown[]) {
    this.once('listening', () => {
      const address = this.address();
      if (typeof address === 'string') current().ownPaths.add(address);
      else if (address !== null) current().ownPorts.add(address.port);
    });
    return (listen as (...a: unknown[]) => net.Server).apply(this, args);
  } as typeof net.Server.prototype.listen;

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const target = targetOf(args);
    if (!allowed(target)) {
      const where = target.path ?? `${target.host ?? '?'}:${String(target.port)}`;
      const error = refuse(`a connection to ${where}, which this process does not listen on`);
      // Refused as the network would refuse it (asynchronously, as an error on the socket), so the code
      // under test fails as it would against a closed port instead of hanging; the file fails below.
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  syncBuiltinESMExports();
}

afterAll(() => {
  if (state.violations.length > 0) throw new Error([...new Set(state.violations)].join('\n'));
});
