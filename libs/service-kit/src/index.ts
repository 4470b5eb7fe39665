export * from './service-module.ts';
