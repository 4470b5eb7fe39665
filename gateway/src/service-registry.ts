/**
 * Where each service's factory lives. Loaded lazily so a single-service process (TARGET=auth)
 * only loads its own code.
 */
import { SERVICE_NAMES } from '@skald/service-kit';
import type { ServiceFactory, ServiceName } from '@skald/service-kit';

export const SERVICE_FACTORIES: Readonly<Record<ServiceName, { readonly pkg: string; readonly exportName: string }>> = {
  auth: { pkg: '@skald/auth-service', exportName: 'createAuthService' },
  ingestion: { pkg: '@skald/ingestion-service', exportName: 'createIngestionService' },
  logs: { pkg: '@skald/logs-service', exportName: 'createLogsService' },
  webhooks: { pkg: '@skald/webhooks-service', exportName: 'createWebhooksService' },
  backups: { pkg: '@skald/backups-service', exportName: 'createBackupsService' },
  billing: { pkg: '@skald/billing-service', exportName: 'createBillingService' },
  admin: { pkg: '@skald/admin-service', exportName: 'createAdminService' },
};

export type FactoryOverrides = Partial<Record<ServiceName, ServiceFactory>>;

export async function loadServiceFactory(name: ServiceName, overrides: FactoryOverrides = {}): Promise<ServiceFactory> {
  const override = overrides[name];
  if (override) return override;
  const { pkg, exportName } = SERVICE_FACTORIES[name];
  const mod = (await import(pkg)) as Record<string, unknown>;
  const factory = mod[exportName];
  if (typeof factory !== 'function') throw new Error(`${pkg} does not export ${exportName}`);
  return factory as ServiceFactory;
}

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}
