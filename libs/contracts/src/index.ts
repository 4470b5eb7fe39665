export * from './topics.ts';
export * from './tiers.ts';
export * from './quota.ts';
export * from './api-key.ts';
export * from './events/logs.ts';
export * from './events/identity.ts';
export * from './events/audit.ts';
export * from './events/framework.ts';
