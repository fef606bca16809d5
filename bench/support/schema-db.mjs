// Creates a SQLite file with the built server's schema (all its migrations) at the path given as the
// first argument, and prints the columns the quota ledger writes a consume-log row with, as JSON. Run
// as a short-lived child so the benchmark's own process does not load the server's modules.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './harness.mjs';

const require = createRequire(import.meta.url);
require(join(root, 'node_modules/reflect-metadata'));
const { createDataSource } = require(join(root, 'dist/server/src/database/data-source.js'));
const { LOG_COLUMNS } = require(join(root, 'dist/server/src/modules/billing/quota-ledger.service.js'));

const file = process.argv[2];
if (!file) throw new Error('usage: node schema-db.mjs <file>');
const ds = createDataSource({ type: 'sqlite', path: file });
await ds.initialize();
await ds.runMigrations();
await ds.destroy();
process.stdout.write(JSON.stringify(LOG_COLUMNS));
