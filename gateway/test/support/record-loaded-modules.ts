/**
 * Preload for `node --import`: appends the URL of every module the process loads (ESM and CommonJS, through
 * Node's synchronous module hooks) to the file named by LOADED_MODULES_FILE, one a line, as it is loaded.
 * gateway/test/gateway-only-imports.test.ts starts TARGET=gateway with it and reads what was loaded.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env['LOADED_MODULES_FILE'];
if (file === undefined || file === '') throw new Error('record-loaded-modules: set LOADED_MODULES_FILE');

registerHooks({
  load(url, context, nextLoad) {
    appendFileSync(file, `${url}\n`);
    return nextLoad(url, context);
  },
});
