// Run from the repository root:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c infra/test/jest.config.js
import { jestConfig } from '../../jest.preset.js';

export default jestConfig({
  rootDir: import.meta.dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
});
