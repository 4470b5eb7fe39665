export * from './event-bus.ts';
export * from './document-store.ts';
export * from './log-store.ts';
export * from './object-store.ts';
export * from './job-queue.ts';
export * from './counters.ts';
export * from './mailer.ts';
export * from './payments.ts';
