// Browser smoke tests against the built, running apps. Run from the repo root:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c web/e2e/jest.config.js
import { jestConfig } from '../../jest.preset.js';

export default jestConfig({
  displayName: 'e2e',
  testMatch: ['**/*.e2e.ts'],
  // One Chromium at a time: the machine has two cores and the apps are already running on them.
  maxWorkers: 1,
  testTimeout: 60_000,
});
