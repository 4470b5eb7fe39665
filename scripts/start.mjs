#!/usr/bin/env node
// `npm start`: builds the web app if web/dist is missing (npm run build:web), then runs the launcher
// (`node <NODE_FLAGS> gateway/src/main.ts`, TARGET=all by default) in this process's place, forwarding signals.
import './require-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_FLAGS } from './node-flags.mjs';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

if (!existsSync(join(root, 'web', 'dist', 'index.html')) && process.env.SKIP_WEB_BUILD !== '1') {
  console.log('web/dist is missing: building the web app (npm run build:web) ...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build:web'], { cwd: root, stdio: 'inherit', env });
  if (build.status !== 0) console.error('The web build failed; starting the API anyway (/ will say the web app is not built).');
}

const child = spawn(process.execPath, [...NODE_FLAGS, join(root, 'gateway', 'src', 'main.ts')], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
