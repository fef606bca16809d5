import { consoleLintConfig } from './eslint.base.js';

export default [
  // Generated from the server's OpenAPI document; test/e2e/openapi.e2e.ts checks it is up to date.
  { ignores: ['src/api/schema.gen.ts'] },
  ...consoleLintConfig(import.meta.dirname),
];
