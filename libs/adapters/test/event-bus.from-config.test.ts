/** The bus configuration built from SkaldConfig hands every adapter the history topics. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@skald/config';
import { HISTORY_TOPICS, TOPICS } from '@skald/contracts';
import { eventBusConfig } from '../src/from-config.ts';

describe('eventBusConfig', () => {
  const base = loadConfig({ DATA_DIR: '/tmp/skald-from-config-test' });

  it('passes HISTORY_TOPICS to every adapter, and only those', () => {
    const configs = [
      eventBusConfig({ ...base, adapters: { ...base.adapters, eventBus: 'memory' } }),
      eventBusConfig({ ...base, adapters: { ...base.adapters, eventBus: 'redis' }, redis: { url: 'redis://127.0.0.1:6379', prefix: 'skald' } }),
      eventBusConfig({ ...base, adapters: { ...base.adapters, eventBus: 'kafka' }, kafka: { brokers: ['k:9092'], clientId: 'skald-test' } }),
    ];
    expect(configs.map((config) => config.kind)).toEqual(['memory', 'redis', 'kafka']);
    for (const config of configs) expect(config.historyTopics).toEqual(HISTORY_TOPICS);
    expect([...HISTORY_TOPICS].sort()).toEqual([TOPICS.audit, TOPICS.billing, TOPICS.identity, TOPICS.logCounts, TOPICS.backups].sort());
    // High volume and never needed by a late consumer: trimmed once consumed.
    expect(HISTORY_TOPICS).not.toContain(TOPICS.logsIngested);
  });
});
