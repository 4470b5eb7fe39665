export * from './topics.ts';
export * from './tiers.ts';
