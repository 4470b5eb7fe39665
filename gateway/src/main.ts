/**
 * Process entry: `node gateway/src/main.ts`. TARGET=all (default) runs everything in one process;
 * TARGET=gateway the proxying gateway; TARGET=<service> one service. Invalid configuration exits 1
 * with a message naming the variable.
 */
import { enableCompileCache } from 'node:module';
// Small and needed first; libraries are imported statically (the Nx boundary rule forbids lazy-loading them).
import { ConfigError, loadConfig } from '@skald/config';

// Reuse compiled code across restarts (type stripping and V8 compilation of every workspace module);
// it must run before the application modules are imported, hence the dynamic import of the launcher.
enableCompileCache();

const { launch } = await import('./launch.ts');

try {
  await launch(loadConfig(process.env));
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Skald failed to start:', error);
  process.exit(1);
}
