export * from './counters/index.ts';
export * from './mailer/index.ts';
