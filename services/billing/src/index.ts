/**
 * The billing service. Skeleton: it runs in all-in-one and as TARGET=billing with /health and /ready,
 * and owns its route-table entries (gateway/src/route-table.ts), but has no endpoints yet (later issue).
 */
import { createSkeletonService } from '@skald/service-kit';
import type { ServiceFactory } from '@skald/service-kit';

export const createBillingService: ServiceFactory = async (deps) => createSkeletonService('billing', deps);
