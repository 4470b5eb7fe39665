export * from './counters/index.ts';
export * from './mailer/index.ts';
export * from './event-bus/index.ts';
export * from './from-config.ts';
export * from './document-store/index.ts';
export * from './log-store/index.ts';
export * from './object-store/index.ts';
export * from './job-queue/index.ts';
