/**
 * One Jest project per database: the same e2e suites run against SQLite, MariaDB and PostgreSQL, each
 * test file on a fresh database of its own. Unit specs sit next to the code; browser tests drive Chromium.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // ESM-only dependencies (loaded natively by Node's require(esm) at run time) are compiled for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|eventsource-parser|otplib|@otplib|@scure|@noble)/)'],
  rootDir: __dirname,
};

const e2e = (displayName, driver) => ({
  ...base,
  displayName,
  testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
  // Every JSON answer of the server under test is checked against docs/openapi.json.
  setupFiles: [`<rootDir>/test/support/driver-${driver}.ts`, '<rootDir>/test/support/check-answers.ts'],
  slowTestThreshold: 30,
});

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/server/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'] },
    e2e('sqlite', 'sqlite'),
    e2e('mariadb', 'mysql'),
    e2e('postgres', 'postgres'),
    {
      ...base,
      displayName: 'conformance',
      testMatch: ['<rootDir>/test/conformance/**/*.conformance.ts'],
      setupFiles: ['<rootDir>/test/support/driver-sqlite.ts'],
    },
    { ...base, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser.ts'] },
  ],
};
