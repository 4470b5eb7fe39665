/** The webhooks service: its factory is all other packages need (the gateway mounts it by this name). */
export { createWebhooksService } from './webhooks-service.ts';
