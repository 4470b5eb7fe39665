import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  root: import.meta.dirname,
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.tsx', 'test/**/*.test.ts'],
    // The unit tier's guard (docs/TESTING.md "Test tiers"): no child process, no connection out of the process.
    setupFiles: ['test/setup.ts', '../test/support/unit-tier-guard.ts'],
    css: false,
    // vitest's default is one worker fewer than the cores: one file at a time on the 2-core machine.
    maxWorkers: 2,
    // Screen tests drive antd through many renders; on a shared, loaded CI core a multi-step screen test
    // (user settings, 2FA) takes 3 to 6 s, so the 5 s default fails them for load, not for behaviour.
    testTimeout: 20_000,
  },
});
