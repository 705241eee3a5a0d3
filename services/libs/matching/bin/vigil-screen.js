#!/usr/bin/env node
// The vigil-screen bin. npm links a workspace's bins when it installs, and in a fresh clone
// that is before `npm run build` has written dist/: a bin pointing into dist/ would not be
// linked at all (npx then looks the name up in the registry). This committed file is what
// npm links; it runs the built command line.
const cli = new URL('../dist/cli/main.js', import.meta.url);

import(cli.href).catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(cli.pathname)) {
    process.stderr.write('vigil-screen: @vigil/matching is not built yet; run `npm run build` first.\n');
  } else {
    process.stderr.write(`vigil-screen: ${error?.stack ?? error}\n`);
  }
  process.exit(1);
});
