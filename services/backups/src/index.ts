/**
 * The backups service. Skeleton: it runs in all-in-one and as TARGET=backups with /health and /ready,
 * and owns its route-table entries (gateway/src/route-table.ts), but has no endpoints yet (later issue).
 */
import { createSkeletonService } from '@skald/service-kit';
import type { ServiceFactory } from '@skald/service-kit';

export const createBackupsService: ServiceFactory = async (deps) => createSkeletonService('backups', deps);
