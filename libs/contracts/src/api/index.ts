export * from './common.ts';
export * from './identity.ts';
export * from './logs.ts';
export * from './ingestion.ts';
