/**
 * The billing service: its factory (the gateway mounts it by this name) and setServerTierFromCli for the
 * operator command (gateway/src/cli.ts `servers:tier`).
 */
export { createBillingService } from './billing-service.ts';
export { setServerTierFromCli } from './domain/tier-command.ts';
