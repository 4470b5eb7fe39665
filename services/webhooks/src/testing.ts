/**
 * Internals for benchmarks and other packages' tests (never production code): the factory with its options
 * (a guard allowing local receivers, a short retry schedule, a delivery callback) and the worker control.
 */
export { createWebhooksServiceWith } from './webhooks-service.ts';
export type { WebhooksServiceControl, WebhooksServiceOptions } from './webhooks-service.ts';
export type { DeliveryJob } from './domain/delivery.ts';
