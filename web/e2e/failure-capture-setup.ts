// Installed for every browser test file (web/vitest.e2e.config.ts, setupFiles): a failed test leaves a
// screenshot and a report of the pages it had open (failure-capture.ts), with no line in the test itself.
import { basename } from 'node:path';
import { beforeEach } from 'vitest';
import { captureFailure, markTestStart } from './failure-capture.ts';

beforeEach((context) => {
  markTestStart();
  context.onTestFailed(async ({ task }) => {
    const capture = await captureFailure(`${basename(task.file.name, '.test.ts')} ${task.name}`, task.result?.errors?.[0]);
    if (capture) console.error(`failure capture: ${capture.report}${capture.shots.length > 0 ? ` (${capture.shots.join(', ')})` : ''}`);
  });
});
