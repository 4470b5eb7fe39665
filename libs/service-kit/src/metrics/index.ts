export * from './http-metrics.ts';
export * from './adapter-metrics.ts';
export * from './metrics-server.ts';
