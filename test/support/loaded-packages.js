// Preloaded into a server process (NODE_OPTIONS=--require …): on SIGUSR2 it writes the names of the
// packages the process has loaded so far, one per line, to LOADED_PACKAGES_FILE.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload (--require) runs before any loader
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (m) names.add(m[1]);
  }
  writeFileSync(process.env.LOADED_PACKAGES_FILE, [...names].sort().join('\n'));
});
