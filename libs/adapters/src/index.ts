export * from './counters/index.ts';
