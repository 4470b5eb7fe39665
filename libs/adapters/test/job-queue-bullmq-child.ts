// Child process for the BullMQ crash test: a worker that takes one job and is SIGKILLed
// while running it. argv: <redisUrl> <prefix> <queue>.
import { BullmqJobQueue } from '../src/job-queue/bullmq-job-queue.ts';

const [url, prefix, queueName] = process.argv.slice(2);
if (!url || !prefix || !queueName) throw new Error('usage: job-queue-bullmq-child.ts <redisUrl> <prefix> <queue>');
const queue = new BullmqJobQueue({ url, prefix, lockDurationMs: 1000, stalledIntervalMs: 1000 });
await queue.process(queueName, async (job) => {
  process.stdout.write(`started ${job.id}\n`);
  await new Promise(() => {}); // never finishes: the parent kills us here
});
process.stdout.write('ready\n');
setInterval(() => {}, 1000);
