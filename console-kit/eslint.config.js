import { consoleLintConfig } from './eslint.base.js';

export default [
  // Generated from the server's OpenAPI document; test/e2e/openapi.e2e.ts checks it is up to date.
  { ignores: ['src/api/schema.gen.ts'] },
  ...consoleLintConfig(import.meta.dirname),
  {
    // A feature (its tests included) imports only itself, src/components, src/lib and the kit's core
    // (api, provider, format); never another feature.
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./)[^/]+',
              message:
                'A feature must not import another feature: move the shared piece to src/components or src/lib.',
            },
            {
              regex: '^(\\.\\./)+features/',
              message:
                'A feature must not import another feature: move the shared piece to src/components or src/lib.',
            },
          ],
        },
      ],
    },
  },
];
