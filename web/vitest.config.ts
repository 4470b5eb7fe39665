import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const include = ['test/**/*.test.tsx', 'test/**/*.test.ts'];
// A file that replaces a module (vi.mock) needs its own module graph: in a shared one, the module may have
// been loaded for real by an earlier file, or the replacement would reach the files after it.
const testDir = join(import.meta.dirname, 'test');
const replacingModules = readdirSync(testDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && readFileSync(join(testDir, file), 'utf8').includes('vi.mock('))
  .map((file) => `test/${file}`);

export default defineConfig({
  plugins: [react()],
  root: import.meta.dirname,
  test: {
    environment: 'jsdom',
    // The unit tier's guard (docs/TESTING.md "Test tiers"): no child process, no connection out of the process.
    setupFiles: ['test/setup.ts', '../test/support/unit-tier-guard.ts'],
    css: false,
    // vitest's default is one worker fewer than the cores: one file at a time on the 2-core machine.
    maxWorkers: 2,
    // Screen tests drive antd through many renders; on a shared, loaded CI core a multi-step screen test
    // (user settings, 2FA) takes 3 to 6 s alone, and up to 5 times that beside the browser tier: the 5 s
    // default would fail them for load, not for behaviour. A guard against a hang, not a bound on the time:
    // on a slower machine with two runs and a browser walk beside them (load 20-24), the view-in-the-address
    // test took 78 s.
    testTimeout: 180_000,
    projects: [
      {
        extends: true,
        // Files share a worker's loaded modules and jsdom (React, antd and the app loaded once, not per
        // file): a third of the CPU time. test/setup.ts clears what a test leaves (the rendered tree, mocks,
        // stubbed globals, local storage); every store is made per render.
        test: { name: 'web', include, exclude: replacingModules, isolate: false },
      },
      { extends: true, test: { name: 'web-isolated', include: replacingModules } },
    ],
  },
});
