// Imported first by every npm script entry (start, test, bench): stops at once, with what to do, when the
// Node running it cannot run the TypeScript sources. Node 20 (Debian 12's) otherwise gets halfway (the
// web build) and dies with `ERR_UNKNOWN_FILE_EXTENSION ".ts"`. Through npm the runtime is the npm package
// `node` (Node 24, in node_modules/.bin after `npm install`), so this guard speaks to direct `node` calls
// and to installs without it (`npm install --omit=dev`).
const REQUIRED = '22.18';

// process.features.typescript ('strip' or 'transform') is what matters: set when type stripping is on,
// which it is by default from Node 22.18 and 23.6; undefined or false on older versions.
if (!process.features.typescript) {
  console.error(
    [
      `Skald needs Node.js ${REQUIRED} or newer (it runs its TypeScript sources directly); this is Node ${process.version} at ${process.execPath}.`,
      'Run it through npm after `npm install` (`npm start`, `npm test`, `npm run bench`, `npm run skald`): npm installs Node 26',
      'into node_modules/.bin (the `node` package in devDependencies) and runs every script on it.',
      'Or install Node.js 26 LTS yourself: https://nodejs.org/en/download (e.g. `nvm install 26`).',
    ].join('\n'),
  );
  process.exit(1);
}
