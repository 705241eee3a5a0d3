import js from '@eslint/js';
import { builtinModules } from 'node:module';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Exact module names go in `paths`; globs in `patterns` (a bare name there would
// also match relative files such as './http/health.js').
const nodeBuiltins = { paths: builtinModules, patterns: ['node:*'] };
const frameworksAndIo = {
  paths: ['typeorm', 'pg', 'nats', 'ioredis', 'stripe', 'react', 'react-dom'],
  patterns: ['@nestjs/*', '@nats-io/*', '@elastic/*', 'react-*', '@reduxjs/*', 'typeorm/*'],
};
const oneWayToPostgres =
  "Repositories reach Postgres through @vigil/platform's Database; TypeORM only runs the migrations (migrations/).";
const both = (...groups) => ({ paths: groups.flatMap((g) => g.paths), patterns: groups.flatMap((g) => g.patterns) });

// Module boundaries. These are the rules that keep the matching core and the
// parsers pure libraries and keep server code out of the browser bundles.
const boundary = (files, forbidden, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: forbidden.paths.map((name) => ({ name, message })),
        patterns: forbidden.patterns.length ? [{ group: forbidden.patterns, message }] : [],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.nx/**',
      '.vigil/**',
      '**/coverage/**',
      'test-results/**',
      '**/*.d.ts',
      '**/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'No `export *` barrels: export names explicitly.' },
        { selector: 'TSEnumDeclaration', message: 'Use a string union instead of an enum.' },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'admin-web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  boundary(
    ['services/libs/matching/src/**/*.ts'],
    both(frameworksAndIo, nodeBuiltins),
    'The matching core is a pure library: no framework, no I/O, no Node APIs.',
    ['services/libs/matching/src/cli/**'],
  ),
  boundary(
    ['services/libs/lists/src/**/*.ts'],
    both(frameworksAndIo, nodeBuiltins),
    'List parsers are pure: bytes in, entities out. File access lives in src/node/.',
    ['services/libs/lists/src/node/**', 'services/libs/lists/src/**/*.spec.ts'],
  ),
  boundary(
    ['proto/src/**/*.ts'],
    both(frameworksAndIo, nodeBuiltins, { paths: ['@vigil/platform'], patterns: [] }),
    'proto/ is the wire contract only: zod schemas and types, usable in browsers and services.',
  ),
  boundary(
    ['web/**/*.{ts,tsx}', 'admin-web/**/*.{ts,tsx}'],
    {
      paths: ['typeorm', 'pg', 'nats', 'stripe', 'ioredis', '@vigil/platform', '@vigil/matching', '@vigil/lists', ...builtinModules],
      patterns: ['@nestjs/*', '@nats-io/*', 'node:*'],
    },
    'Browser code talks to the gateway over HTTP only; server packages stay on the server.',
    ['web/e2e/**', '**/vite.config.ts', '**/*.e2e.ts'],
  ),
  // One entry for both rules on services/*/src: a second entry would replace this rule's options.
  {
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['typeorm', 'pg', '@nestjs/typeorm'].map((name) => ({ name, message: oneWayToPostgres })),
          patterns: [
            {
              group: ['**/services/*/src/**', '../../*/src/**'],
              message: 'Services do not import each other: data crosses over NATS through proto/ contracts.',
            },
            { group: ['typeorm/*'], message: oneWayToPostgres },
          ],
        },
      ],
    },
  },
);
