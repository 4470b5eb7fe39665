/** The billing service: its factory is all other packages need (the gateway mounts it by this name). */
export { createBillingService } from './billing-service.ts';
