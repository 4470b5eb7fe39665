// Child process for the embedded job-queue crash tests (run by Node's type stripping).
// argv: <mode> <file>. Prints one line per milestone; the parent SIGKILLs it mid-way.
import { EmbeddedJobQueue } from '../src/job-queue/embedded-job-queue.ts';

const [mode, file] = process.argv.slice(2);
if (!file) throw new Error('usage: job-queue-child.ts <add|work> <file>');
const queue = new EmbeddedJobQueue(file);

if (mode === 'add') {
  const id = await queue.add('crash', 'survives-kill', { step: 'added' }, { attempts: 2 });
  process.stdout.write(`added ${id}\n`);
} else if (mode === 'work') {
  await queue.add('crash', 'killed-mid-job', { step: 'working' }, { jobId: 'mid-job-1' });
  await queue.process('crash', async (job) => {
    process.stdout.write(`started ${job.id} ${job.attempt}\n`);
    await new Promise(() => {}); // never finishes: the parent kills us here
  });
}
// Stay alive until killed.
setInterval(() => {}, 1000);
