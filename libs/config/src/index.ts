export * from './env-schema.ts';
export * from './config.ts';
export * from './load-config.ts';
