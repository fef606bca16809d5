// Type-aware linting of the server, migrations and tests (the console workspaces lint themselves).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The server's modules (each a folder of server/src/modules). */
const serverModules = readdirSync(new URL('./server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Import patterns that reach past the public face (index.ts) of each of `modules`. */
const moduleFaces = (modules) =>
  modules.map((m) => ({
    group: [`**/${m}/*`, `**/${m}/**/*`, `!**/${m}/index`],
    message: `Import the ${m} module through its public face (modules/${m}/index.ts).`,
  }));

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
  // Module boundaries: a server module is imported by other code only through its index.ts (its public
  // face); common/, config/ and database/ sit below every module and import none. Specs may reach in.
  ...serverModules.map((own) => ({
    files: [`server/src/modules/${own}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: moduleFaces(serverModules.filter((m) => m !== own)) }] },
  })),
  {
    files: ['server/src/*.ts', 'server/src/import/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: moduleFaces(serverModules) }] },
  },
  {
    files: ['server/src/common/**/*.ts', 'server/src/config/**/*.ts', 'server/src/database/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/*', '**/modules/**/*'],
              message: 'common/, config/ and database/ sit below the modules and import none of them.',
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
