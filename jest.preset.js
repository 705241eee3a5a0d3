// One jest setup for every TypeScript package: ESM through ts-jest's default-esm
// preset (Nest 12 and our packages are ESM-only), transpile-only because `tsc`
// already type-checks in its own task and doing it twice doubles test time.
const summaryReporter = new URL('./infra/scripts/jest-summary-reporter.js', import.meta.url).pathname;

export function jestConfig(overrides = {}) {
  return {
    testEnvironment: 'node',
    reporters: ['default', summaryReporter],
    extensionsToTreatAsEsm: ['.ts'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    transform: {
      '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: { isolatedModules: true, module: 'NodeNext', moduleResolution: 'NodeNext', experimentalDecorators: true, emitDecoratorMetadata: true } }],
    },
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    ...overrides,
  };
}
