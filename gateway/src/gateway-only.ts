/** TARGET=gateway: the proxying gateway alone (no adapters): headers, CORS, limits, web app, proxy. */
import type { SkaldConfig } from '@skald/config';
import { registerCompression } from './compression.ts';
import { createLauncherApp, runningProcess } from './launcher-app.ts';
import type { LauncherOptions, RunningProcess } from './launcher-app.ts';
import { registerProxy, registerProxyHealth } from './proxy.ts';
import { registerProxyOpenApi } from './openapi-proxy.ts';
import { registerPublicConfig } from './public-config.ts';
import { registerSecurity } from './security.ts';
import { DEFAULT_WEB_DIST, registerWebApp, spaNotFoundHandler } from './web-app.ts';

export async function buildGateway(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  const app = createLauncherApp(config, options, { notFoundHandler: spaNotFoundHandler(webDist) });
  await registerSecurity(app, config.corsOrigins);
  // Before any route: the plugin attaches itself to the routes declared after it.
  await registerCompression(app);
  registerProxyHealth(app, config);
  registerProxyOpenApi(app, config);
  registerPublicConfig(app, config);
  await registerProxy(app, config);
  await registerWebApp(app, webDist);
  return runningProcess(app, [], []);
}
