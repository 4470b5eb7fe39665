/**
 * Read from the adapters at scrape time: event-bus consumer lag and dead letters per group and topic,
 * and job queue depth per queue and state. An adapter that cannot tell (no consumerLag / depths) adds nothing;
 * one that fails or hangs during a scrape leaves its gauge empty for that scrape and counts the failure
 * in skald_metrics_collect_errors_total (visible from the next scrape), so /metrics itself always answers.
 */
import type { EventBus, JobQueue } from '@skald/ports';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

const COLLECT_TIMEOUT_MS = 3_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface AdapterMetricSources {
  readonly bus?: Pick<EventBus, 'consumerLag' | 'deadLettered'>;
  readonly jobs?: Pick<JobQueue, 'depths'>;
}

export function registerAdapterMetrics(registry: Registry, sources: AdapterMetricSources): void {
  const errors = new Counter({
    name: 'skald_metrics_collect_errors_total',
    help: 'Scrapes in which an adapter could not report (source: bus or jobs)',
    labelNames: ['source'] as const,
    // A scrape collects every metric at once, so a failure shows from the next scrape on.
    registers: [registry],
  });
  const { bus, jobs } = sources;
  if (bus?.consumerLag) {
    const consumerLag = bus.consumerLag.bind(bus);
    new Gauge({
      name: 'skald_bus_consumer_lag',
      help: 'Messages on a topic that a consumer group of this process has not committed yet',
      labelNames: ['group', 'topic'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        try {
          for (const { group, topic, lag } of await withTimeout(consumerLag(), COLLECT_TIMEOUT_MS)) this.set({ group, topic }, lag);
        } catch {
          errors.inc({ source: 'bus' });
        }
      },
    });
  }
  if (bus?.deadLettered) {
    const deadLettered = bus.deadLettered.bind(bus);
    new Counter({
      name: 'skald_bus_dead_letters_total',
      help: "Messages this process's consumer groups moved to a topic's dead-letter topic (.dlq), by group and original topic",
      labelNames: ['group', 'topic'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { group, topic, count } of deadLettered()) this.inc({ group, topic }, count);
      },
    });
  }
  if (jobs?.depths) {
    const depths = jobs.depths.bind(jobs);
    new Gauge({
      name: 'skald_job_queue_jobs',
      help: 'Jobs per queue and state (waiting, delayed, active, dead)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        try {
          for (const depth of await withTimeout(depths(), COLLECT_TIMEOUT_MS)) {
            for (const state of ['waiting', 'delayed', 'active', 'dead'] as const) this.set({ queue: depth.queue, state }, depth[state]);
          }
        } catch {
          errors.inc({ source: 'jobs' });
        }
      },
    });
  }
}
