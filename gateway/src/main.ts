/**
 * Process entry: `node gateway/src/main.ts`. TARGET=all (default) runs everything in one process;
 * TARGET=gateway the proxying gateway; TARGET=<service> one service. Invalid configuration exits 1
 * with a message naming the variable.
 */
import { enableCompileCache, flushCompileCache } from 'node:module';
// Small and needed first; libraries are imported statically (the Nx boundary rule forbids lazy-loading them).
import { ConfigError, loadConfig } from '@skald/config';

// Reuse compiled code across restarts (type stripping and V8 compilation of every workspace module);
// it must run before the application modules are imported, hence the dynamic imports below.
enableCompileCache();

try {
  const config = loadConfig(process.env);
  const { launch, loadMode } = await import('./launch.ts');
  // The chosen mode's modules only (the proxying gateway loads no service and no adapter).
  const build = await loadMode(config.target);
  // Node keeps every cache entry it read or made (~9 MiB of malloc'd code cache: ~1,900 entries for the
  // all-in-one's modules) until the process exits. Flushing writes the new ones now and frees them all, before
  // the process opens its stores and builds its routes, so those allocations reuse the space: idle RSS ~5 MiB
  // lower. Freed later, the space stays resident as holes (docs/DECISIONS.md, "Performance").
  flushCompileCache();
  await launch(config, {}, build);
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Skald failed to start:', error);
  process.exit(1);
}
