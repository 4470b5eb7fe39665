// Builds the web app once for the whole browser run; every test file's buildWeb() then finds the build
// (SKIP_WEB_BUILD=1 reaches the test workers, which start after this set-up).
import { buildWeb } from './server.ts';

export default function setup(): void {
  buildWeb();
  process.env.SKIP_WEB_BUILD = '1';
}
