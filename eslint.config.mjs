// Type-aware linting of the server, migrations and tests (the console workspaces lint themselves).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'console-kit/**', 'host-app/**', 'bench/results/**', '.test-out/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      // HTTP status numbers are compared with Nest's HttpStatus enum on purpose.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    // The relay's public face: outside relay/, only relay/index.ts may be imported.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/modules/relay/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/relay/*', '**/relay/**/*', '!**/relay/index'],
              message: 'Import the relay through its public face (modules/relay/index.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      // supertest bodies are `any` by design; asserting on them is the point of the tests.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', __dirname: 'readonly', module: 'writable', require: 'readonly' } } },
  prettier,
);
