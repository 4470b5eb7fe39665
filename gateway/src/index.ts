export * from './route-table.ts';
export * from './launcher-app.ts';
export * from './all-in-one.ts';
export * from './gateway-only.ts';
export * from './single-service.ts';
export * from './launch.ts';
export * from './service-registry.ts';
export { registerSecurity, CONTENT_SECURITY_POLICY } from './security.ts';
export { mergeOpenApi } from './openapi.ts';
