export * from './topics.ts';
export * from './tiers.ts';
export * from './quota.ts';
export * from './events/logs.ts';
