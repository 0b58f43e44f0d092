import coreWebVitals from 'eslint-config-next/core-web-vitals';
import typescript from 'eslint-config-next/typescript';

const config = [
  ...coreWebVitals,
  ...typescript,
  {
    ignores: ['.next/**', 'node_modules/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**'],
  },
  {
    // Packages are not read for cycles (they cannot import our code).
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // No module reaches itself through its imports, types included: each layer imports only the ones below it.
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The browser fence: code that runs in the browser, or that the browser imports, takes the wire contract
    // from lib/contract and never reaches the upstream client or server-only modules (credentials, tokens,
    // sessions), even for a type.
    // No zod either: it was 22 kB of the first screen's gzipped JavaScript; the schemas are the server's
    // (lib/contract/schemas.ts), the browser reads our own answers with a few checks written by hand.
    files: [
      'components/**',
      'lib/explorer/**',
      'lib/people/**',
      'lib/contract/**',
      'lib/i18n/**',
      'lib/export/**',
      'lib/csv.ts',
      'lib/utc-date.ts',
      'lib/safe-next.ts',
      'lib/org-param.ts',
      'lib/coded-error.ts',
    ],
    // Server-only modules among them: the schemas, and the workbook writer's stream plumbing.
    ignores: ['lib/contract/schemas.ts', 'lib/export/xlsx-streaming.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: "The browser carries no zod: the schemas are the server's (lib/contract/schemas.ts).",
            },
          ],
          patterns: [
            {
              group: ['zod/*', '**/zod', '**/contract/schemas'],
              message: "The browser carries no zod: the schemas are the server's (lib/contract/schemas.ts).",
            },
            {
              group: ['**/batch-api', '**/batch-api/**'],
              message:
                'The upstream client is server code (credentials, tokens): browser code takes the wire contract from lib/contract.',
            },
            {
              group: ['**/lib/server/**', '../server/**', 'server-only', 'node:*'],
              message: 'Server-only code: not for the browser.',
            },
          ],
        },
      ],
    },
  },
];

export default config;
