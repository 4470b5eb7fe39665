export * from './service-module.ts';
export * from './identity-read-model.ts';
