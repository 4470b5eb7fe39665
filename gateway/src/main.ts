/**
 * Process entry: `node gateway/src/main.ts`. TARGET=all (default) runs everything in one process;
 * TARGET=gateway the proxying gateway; TARGET=<service> one service. Invalid configuration exits 1
 * with a message naming the variable.
 */
import { ConfigError, loadConfig } from '@skald/config';
import { launch } from './launch.ts';

try {
  await launch(loadConfig(process.env));
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Skald failed to start:', error);
  process.exit(1);
}
